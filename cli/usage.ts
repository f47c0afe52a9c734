// What every command shares: failures with their exit status (sysexits, as Vector's), option values, and
// the `--color` choice.

/** sysexits codes the commands exit with. */
export const EXIT_USAGE = 64;
export const EXIT_NO_INPUT = 66;
export const EXIT_UNAVAILABLE = 69;
export const EXIT_SOFTWARE = 70;
export const EXIT_IO = 74;

/** A failure the user is told about as one line, `svc: <message>`, and the exit status it ends with. */
export class CliError extends Error {
  override name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A command line the user must correct (EX_USAGE, as Vector exits on a bad command line). */
export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(message: string) {
    super(message, EXIT_USAGE);
  }
}

/** A Node system error's reason without its code and system call: `no space left on device`. */
export function systemErrorReason(error: NodeJS.ErrnoException): string {
  let reason = error.message;
  if (error.code && reason.startsWith(`${error.code}: `)) reason = reason.slice(error.code.length + 2);
  const call = error.syscall ? reason.lastIndexOf(`, ${error.syscall}`) : -1;
  return call >= 0 ? reason.slice(0, call) : reason;
}

/**
 * The text of an option that takes one value. cac (through mri) turns numeric-looking values into numbers
 * and repeated options into arrays, so both are normalised here.
 */
export function stringOption(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`${flag} given more than once`);
  return String(value);
}

const COLOR_CHOICES: readonly string[] = ['always', 'auto', 'never'];

/** Whether to write ANSI colors to `stream`: `--color`, else SVC_COLOR, else `auto` (only on a terminal). */
export function useColor(option: unknown, stream: NodeJS.WriteStream): boolean {
  const choice = stringOption(option, '--color') ?? (process.env.SVC_COLOR || 'auto');
  if (!COLOR_CHOICES.includes(choice)) {
    throw new UsageError(`invalid --color '${choice}': expected one of ${COLOR_CHOICES.join(', ')}`);
  }
  return choice === 'always' || (choice === 'auto' && stream.isTTY === true);
}

/**
 * The value the last of `flags` has in raw arguments (`-i file`, `--input file`, `--input=file`): for what
 * must be read before the CLI parses them (threads started early), so read roughly.
 */
export function rawOptionValue(argv: readonly string[], flags: readonly string[]): string | undefined {
  let value: string | undefined;
  argv.forEach((argument, i) => {
    if (flags.includes(argument)) value = argv[i + 1];
    for (const flag of flags) if (argument.startsWith(`${flag}=`)) value = argument.slice(flag.length + 1);
  });
  return value;
}

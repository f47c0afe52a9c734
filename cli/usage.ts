// What every command shares: usage errors (exit status 64), option values, and the `--color` choice.

/** A command line the user must correct; reported as `svc: <message>` with exit status 64 (EX_USAGE). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** sysexits EX_USAGE, as Vector exits on a bad command line. */
export const EXIT_USAGE = 64;

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

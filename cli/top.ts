// `svc top`: a full-screen dashboard of a running instance's components and their metrics, read from its
// management API, as Vector's `vector top`. Exit statuses as Vector's: 64 for a bad command line (a bad
// --url), 74 without a terminal, 69 when the API cannot be reached at start; and 69 too when the connection
// is lost with --no-reconnect (Vector's top ends with 0 there, which tells a script nothing went wrong).

import type { CAC, Command } from 'cac';
import { apiUrl, DEFAULT_API_URL, requireHealthyApi } from './api-client.js';
import { CliError, EXIT_IO, EXIT_UNAVAILABLE, stringOption, useColor, UsageError } from './usage.js';

const DEFAULT_INTERVAL_MS = 1000;

/** --interval: a positive whole number of milliseconds. */
function intervalMs(value: unknown): number {
  const text = stringOption(value, '--interval');
  if (text === undefined) return DEFAULT_INTERVAL_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`invalid --interval '${text}': expected a positive whole number of milliseconds`);
  return ms;
}

/** --components: comma-separated ids or globs, the option possibly repeated; all components by default.
 * picomatch loads here, not with the CLI: only `svc top` needs it. */
async function componentFilter(value: unknown): Promise<(id: string) => boolean> {
  const patterns = (value === undefined ? ['*'] : [value].flat().map(String))
    .flatMap((list) => list.split(','))
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '');
  if (patterns.length === 0) throw new UsageError('--components needs at least one component id or glob');
  const { default: picomatch } = await import('picomatch');
  return picomatch(patterns, { dot: true });
}

async function runTop(options: Record<string, unknown>): Promise<void> {
  const url = apiUrl(stringOption(options.url, '--url') ?? DEFAULT_API_URL);
  // cac's parser sets both names of `-n, --no-reconnect` to true for `-n`, and both to false for `--no-reconnect`.
  const reconnect = options.n !== true && options.reconnect !== false;
  const feed = {
    url,
    intervalMs: intervalMs(options.interval),
    filter: await componentFilter(options.components),
    reconnect,
  };
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new CliError('top needs a terminal (a TTY on stdin and stdout) to display its dashboard', EXIT_IO);
  }
  // Loaded here: the client and the terminal UI are for this command only.
  const { ConnectionLost } = await import('./top/connection.js');
  await requireHealthyApi(url);
  // ink colours through chalk, which reads FORCE_COLOR when it loads: --color never (or SVC_COLOR) turns it off.
  if (!useColor(options.color, process.stdout)) process.env.FORCE_COLOR = '0';
  const { showDashboard } = await import('./top/dashboard.js');
  try {
    await showDashboard({ ...feed, human: options.humanMetrics === true });
  } catch (error) {
    if (!(error instanceof ConnectionLost)) throw error;
    throw new CliError(`lost the connection to the API at ${url.href}: ${error.message}`, EXIT_UNAVAILABLE);
  }
}

export function registerTop(cli: CAC): Command {
  const command = cli
    .command('top', 'Console display of topology and metrics for a local or remote instance')
    .option('-H, --human-metrics', 'Humanize metrics, with numeric suffixes: 1,100 = 1.10 k, 1,000,000 = 1.00 M')
    .option('-n, --no-reconnect', 'Do not reconnect when the connection to the API drops (by default top reconnects)')
    .option('-c, --components <ids>', 'Component ids to observe (comma-separated; globs accepted; default: *)')
    .option('-i, --interval <ms>', `Interval to sample metrics at, in milliseconds (default: ${DEFAULT_INTERVAL_MS})`)
    .option('-u, --url <url>', `The instance's API endpoint (default: ${DEFAULT_API_URL})`);
  // cac gives a `--no-x` flag the default `x = true`, which its help would show as "(default: true)".
  command.options.find((option) => option.rawName === '-n, --no-reconnect')!.config.default = undefined;
  return command.action(runTop);
}

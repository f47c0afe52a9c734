// `svc tap`: prints the events a running instance's API samples from components' outputs (and inputs), in
// Vector's formats, with Vector's notifications on stderr. Speaks the subscription Vector's own tap sends,
// over graphql-ws; reconnects when the connection is lost unless --no-reconnect.

import type { CAC, Command } from 'cac';
import { apiUrl, DEFAULT_API_URL, RECONNECT_DELAY_MS, requireHealthyApi, websocketUrl } from './api-client.js';
import { CliError, EXIT_UNAVAILABLE, stringOption, UsageError } from './usage.js';
import { vectorDocument } from './vector-documents.js';

const FORMATS = ['json', 'logfmt', 'yaml'] as const;
type Format = (typeof FORMATS)[number];

/** Vector 0.54's tap document, unchanged (read when a tap starts, not with the CLI). */
const SUBSCRIPTION = 'subscriptions/output_events_by_component_id_patterns.graphql';

interface TapOptions {
  url: URL;
  socketUrl: string;
  outputsPatterns: string[];
  inputsPatterns: string[];
  format: Format;
  interval: number;
  limit: number;
  meta: boolean;
  durationMs: number | undefined;
  quiet: boolean;
  reconnect: boolean;
}

interface Payload {
  __typename: 'Log' | 'Metric' | 'Trace' | 'EventNotification';
  componentId?: string;
  componentKind?: string;
  componentType?: string;
  string?: string;
  message?: string;
}

function integerOption(value: unknown, flag: string, least: number): number | undefined {
  const text = stringOption(value, flag);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number < least)
    throw new UsageError(`invalid ${flag} '${text}': expected an integer of at least ${least}`);
  return number;
}

/** Comma-separated ids or globs, from one or more uses of the option. */
function listOption(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((item) => String(item).split(','))
    .filter((item) => item !== '');
}

function tapOptions(components: readonly string[], parsed: Record<string, unknown>): TapOptions {
  const url = apiUrl(stringOption(parsed.url, '--url') ?? DEFAULT_API_URL);
  const format = (stringOption(parsed.format, '--format') ?? 'json') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`invalid --format '${format}': expected one of ${FORMATS.join(', ')}`);
  const positional = components.map(String);
  const outputsOf = listOption(parsed.outputsOf);
  const inputsPatterns = listOption(parsed.inputsOf);
  // As Vector: every output when no pattern at all is given.
  const outputsPatterns =
    positional.length + outputsOf.length + inputsPatterns.length === 0 ? ['*'] : [...positional, ...outputsOf];
  if (parsed.durationMs !== undefined && parsed.duration_ms !== undefined)
    throw new UsageError('--duration-ms given more than once');
  return {
    url,
    socketUrl: websocketUrl(url),
    outputsPatterns,
    inputsPatterns,
    format,
    // The API refuses an interval too short for it (the refusal is a usage error).
    interval: integerOption(parsed.interval, '--interval', 1) ?? 500,
    limit: integerOption(parsed.limit, '--limit', 1) ?? 100,
    meta: parsed.meta === true,
    durationMs: integerOption(parsed.durationMs ?? parsed.duration_ms, '--duration-ms', 0),
    quiet: parsed.quiet === true,
    // cac reads --no-reconnect as `reconnect: false`, but -n as `n: true` (and `reconnect: true`).
    reconnect: parsed.reconnect !== false && parsed.n !== true,
  };
}

/** The event as printed: as the API rendered it, or with --meta nested under `event` beside its component. */
function formatEvent(payload: Payload, options: TapOptions): string {
  const event = payload.string!;
  if (!options.meta) return event;
  const { componentId: id, componentKind: kind, componentType: type } = payload;
  switch (options.format) {
    case 'json':
      return `{"component_id":${JSON.stringify(id)},"component_kind":${JSON.stringify(kind)},"component_type":${JSON.stringify(type)},"event":${event}}`;
    case 'logfmt':
      return `component_id=${id} component_kind=${kind} component_type=${type} ${event}`;
    case 'yaml':
      return `event:\n${event.replace(/^(?=.)/gm, '  ')}component_id: ${id}\ncomponent_kind: ${kind}\ncomponent_type: ${type}\n`;
  }
}

/** One connection's subscription: resolves when the connection is lost or the subscription ends. */
async function tapOnce(options: TapOptions, stop: AbortSignal): Promise<void> {
  const [{ createClient }, { default: WebSocket }] = await Promise.all([import('graphql-ws'), import('ws')]);
  const client = createClient({ url: options.socketUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const variables = {
        outputsPatterns: options.outputsPatterns,
        inputsPatterns: options.inputsPatterns,
        limit: options.limit,
        interval: options.interval,
        encoding: options.format.toUpperCase(),
      };
      const unsubscribe = client.subscribe<{ outputEventsByComponentIdPatterns: Payload[] }>(
        { query: vectorDocument(SUBSCRIPTION), variables },
        {
          next(result) {
            if (result.errors) {
              reject(
                new UsageError(`the API refused the tap: ${result.errors.map((error) => error.message).join('; ')}`),
              );
              return;
            }
            for (const payload of result.data!.outputEventsByComponentIdPatterns) {
              if (payload.__typename === 'EventNotification') {
                if (!options.quiet) process.stderr.write(`${payload.message}\n`);
              } else process.stdout.write(`${formatEvent(payload, options)}\n`);
            }
          },
          // A closed socket, or a server that went away: the connection is lost.
          error: () => resolve(),
          complete: () => resolve(),
        },
      );
      stop.addEventListener(
        'abort',
        () => {
          unsubscribe();
          resolve();
        },
        { once: true },
      );
    });
  } finally {
    await client.dispose();
  }
}

async function runTap(options: TapOptions): Promise<void> {
  await requireHealthyApi(options.url);
  const stop = new AbortController();
  const end = () => stop.abort();
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  const duration = options.durationMs === undefined ? undefined : setTimeout(end, options.durationMs);
  try {
    for (;;) {
      await tapOnce(options, stop.signal);
      if (stop.signal.aborted) return;
      if (!options.reconnect) throw new CliError(`[tap] Connection to ${options.socketUrl} lost.`, EXIT_UNAVAILABLE);
      if (!options.quiet)
        process.stderr.write(`[tap] Connection failed. Reconnecting in ${RECONNECT_DELAY_MS / 1000} seconds.\n`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONNECT_DELAY_MS);
        stop.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
      if (stop.signal.aborted) return;
    }
  } finally {
    clearTimeout(duration);
    process.off('SIGINT', end);
    process.off('SIGTERM', end);
  }
}

export function registerTap(cli: CAC): Command {
  const command = cli
    .command(
      'tap [...components]',
      'Observe events entering components (transforms, sinks) and leaving components (sources, transforms), sampled at an interval',
    )
    .usage(
      'tap [options] [components...] (ids or globs of sources and transforms whose outputs to observe; default * without --outputs-of and --inputs-of)',
    )
    .option(
      '--outputs-of <ids>',
      'Observe the outputs of these sources and transforms (comma-separated ids, globs allowed)',
    )
    .option(
      '--inputs-of <ids>',
      'Observe the inputs of these transforms and sinks (comma-separated ids, globs allowed)',
    )
    .option('-f, --format <format>', 'json, logfmt or yaml (default: json)')
    .option('-i, --interval <ms>', 'Sampling interval in ms (default: 500)')
    .option('-l, --limit <count>', 'Most events per interval (default: 100)')
    .option('-m, --meta', 'Nest each event under `event` beside its component_id, component_kind and component_type')
    .option('-d, --duration-ms <ms>', 'Sample for this long, then exit (also --duration_ms)')
    .option('--duration_ms <ms>', 'Same as --duration-ms')
    .option('-q, --quiet', 'Print events only, no notifications on stderr')
    .option('-n, --no-reconnect', 'Exit when the connection is lost instead of reconnecting')
    .option('-u, --url <url>', `The API's GraphQL endpoint (default: ${DEFAULT_API_URL})`);
  // cac gives a `--no-x` flag the default `x = true` (for its short name too, which -n could then not be
  // told from), and its help would show it as "(default: true)".
  command.options.find((option) => option.rawName === '-n, --no-reconnect')!.config.default = undefined;
  return command.action(async (components: string[], parsed: Record<string, unknown>) => {
    await runTap(tapOptions(components, parsed));
  });
}

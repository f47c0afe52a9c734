// The services a remap instance gets from whoever runs it (the pipeline, `svc vrl`, the library API):
// handed to each instance rather than held in module-level singletons, so instances can differ.

import type { ModuleInfo } from '../abi/module-info.js';
import { workerIo, type BlockingIo } from './blocking-io.js';
import type { EnrichmentTables, MetricSample } from './service-data.js';

/** Levels of remap's `log()`, in the order of their numbers in `svc_js.log` (docs/abi.md §6). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface InstanceServices {
  /** The current time in nanoseconds since the Unix epoch (`now()`, `log()`'s rate limit, timestamps). */
  now(): bigint;
  /** Time zone for functions that take one implicitly: an IANA name, `local`, or a fixed offset. */
  timezone: string;
  /** Receives remap's `log()` output; `position` is the call's byte offset in the program (Vector's `vrl_position`). */
  log(level: LogLevel, message: string, position: number): void;
  /** Network I/O of `http_request`, `dns_lookup` and `reverse_dns` (default: the process's I/O worker). */
  io?: BlockingIo;
  /** Cap on what a remap decompression function may produce (Vector's `--max-decompressed-size-bytes`). */
  maxDecompressedSize?: number;
  /** A snapshot of the process's internal metrics (`get_svc_metric` and its kin); absent: they fail. */
  metrics?: () => readonly MetricSample[];
  /** The enrichment tables (`find_enrichment_table_records`, `get_enrichment_table_record`); absent: they fail. */
  enrichmentTables?: EnrichmentTables;
}

/** Vector's default `--max-decompressed-size-bytes` (100 MiB). */
export const DEFAULT_MAX_DECOMPRESSED_SIZE = 104_857_600;

const hrtimeOrigin = process.hrtime.bigint();
const epochOrigin = BigInt(Date.now()) * 1_000_000n;

/** The process's clock: the wall clock at start-up, advanced by the monotonic clock. */
export function systemClock(): bigint {
  return process.hrtime.bigint() - hrtimeOrigin + epochOrigin;
}

/** Writes `level: message` lines to stderr. */
export function stderrLog(level: LogLevel, message: string): void {
  process.stderr.write(`${level}: ${message}\n`);
}

/** The services of a module run on its own: the system clock, its compile-time time zone (else UTC), stderr, the I/O worker. */
export function defaultServices(info: Pick<ModuleInfo, 'options'>): InstanceServices {
  return { now: systemClock, timezone: info.options.timezone ?? 'UTC', log: stderrLog, io: workerIo() };
}

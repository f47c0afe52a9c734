// Vector's `source_lag_time_seconds`: for each event a source sends that carries a timestamp (a log's
// `log_schema.timestamp_key` field, a metric's timestamp), how far the send lies after it. The scan reads
// only the keys on the way to the timestamp, in place: every event of every source batch passes here.

import { BATCH_HEADER_SIZE } from '../../abi/batch.js';
import { ByteReader, timestampNanosAt, timestampSecondsAt, Wire } from '../../abi/codec.js';
import { EventKind } from '../../abi/wire/batch.js';
import { enterField, enterIndex } from '../../runtime/engine.js';
import { parseFieldPath, valuePath } from '../config/template.js';
import type { EventBatch } from '../topology/batch.js';
import type { Histogram, MetricsRegistry, Tags } from './metrics.js';

/** Path segments: UTF-8 field names, or array indexes. */
type Path = ReadonlyArray<Uint8Array | number>;

const METRIC_TIMESTAMP: Path = [Buffer.from('timestamp')];

export class SourceLag {
  private readonly histogram: Histogram;
  /** Where a log event's timestamp is; undefined when `timestamp_key` is empty or names metadata. */
  private readonly logTimestamp: Path | undefined;

  /** `now`: milliseconds since the epoch (tests inject a fake clock). */
  constructor(
    registry: MetricsRegistry,
    tags: Tags,
    timestampKey: string,
    private readonly now: () => number = Date.now,
  ) {
    this.histogram = registry.histogram('source_lag_time_seconds', tags);
    const path = timestampKey === '' ? undefined : parseFieldPath(timestampKey);
    this.logTimestamp =
      path && !path.metadata
        ? valuePath(path.segments).map((segment) => (typeof segment === 'string' ? Buffer.from(segment) : segment))
        : undefined;
  }

  /** A batch of events (neither frames nor encoded output) the source sends now. */
  record(batch: EventBatch): void {
    const r = new ByteReader(batch.bytes, BATCH_HEADER_SIZE);
    const nowSeconds = this.now() / 1e3;
    const lags: number[] = [];
    for (let i = 0; i < batch.count; i++) {
      const length = r.u32();
      const next = r.at + length;
      const kind = r.bytes[r.at];
      const path =
        kind === EventKind.Log ? this.logTimestamp : kind === EventKind.Metric ? METRIC_TIMESTAMP : undefined;
      if (path !== undefined) {
        r.at += 4; // kind, code, padding
        r.skip(); // metadata
        if (enterPath(r, path) && r.bytes[r.at] === Wire.Timestamp) {
          const seconds = timestampSecondsAt(r.bytes, r.at);
          lags.push(nowSeconds - seconds - timestampNanosAt(r.bytes, r.at) / 1e9);
        }
      }
      r.at = next;
    }
    this.histogram.recordAll(lags);
  }
}

/** Moves `r` from an event to the value at `path`; false when there is none. */
function enterPath(r: ByteReader, path: Path): boolean {
  for (const segment of path) {
    if (!(typeof segment === 'number' ? enterIndex(r, segment) : enterField(r, segment))) return false;
  }
  return true;
}

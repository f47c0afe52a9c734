// A `memory` enrichment table on the main thread, as Vector's (evmap) works: writes (its sink) and removals (TTL
// scans, exports) wait in `pending` until a flush makes them visible at once to every reader. The main thread
// reads the visible map itself; each flush sends the transform workers what it changed, never the whole table.

import { Regex, Timestamp, type RemapValue } from '../../abi/values.js';
import { parseFieldPath } from '../../runtime/engine.js';
import type { Counter, Gauge, MetricsRegistry, Tags } from '../telemetry/metrics.js';
import {
  FAILED_READS,
  READS,
  jsonText,
  takeTableKeyReads,
  type MemoryEntry,
  type MemoryTableChanges,
  type MemoryTableData,
} from './memory-reader.js';

export interface MemoryTableOptions {
  ttl: number;
  ttl_field: string;
  scan_interval: number;
  flush_interval?: number;
  max_byte_size?: number;
  internal_metrics: { include_key_tag: boolean };
  reload_behavior: 'clear-state' | 'preserve-state';
  source_config?: {
    source_key: string;
    export_interval?: number;
    export_batch_size?: number;
    remove_after_export: boolean;
    export_expired_items: boolean;
  };
}

/** Entries removed by a flush, as they were: what the source sends on its `expired` output. */
export type ExpiredEntries = Array<[string, MemoryEntry]>;

/** An entry's bytes besides its key and its value's JSON text: Vector's String and entry headers (24 + 48 + 24). */
const ENTRY_OVERHEAD = 96;

const lossyUtf8 = new TextDecoder('utf-8');

let instances = 0;

export class MemoryTable {
  /** What the threads are given; `entries` is the visible map itself. */
  readonly data: MemoryTableData;
  private readonly visible = new Map<string, MemoryEntry>();
  /** Per key, what the next flush makes visible: an entry, or null for a removal. */
  private readonly pending = new Map<string, MemoryEntry | null>();
  /** Bytes of the visible entries, plus those written since the last flush (as Vector counts them). */
  private byteSize = 0;
  private visibleSize = 0;
  private readonly ttlPath: readonly (string | number)[];
  private readonly expiredListeners = new Set<(entries: ExpiredEntries) => void>();
  private sendChanges: (changes: MemoryTableChanges) => void = () => {};
  private readonly stopCollecting: () => void;
  /** Handles of the untagged series, each made at its first use (as Vector's appear): a registry lookup per
   * write cost more than the write. */
  private readonly counters = new Map<string, Counter>();
  private readonly gauges = new Map<string, Gauge>();

  /** `tags`: those of the table's metrics (its sink's component tags). */
  constructor(
    id: string,
    readonly options: MemoryTableOptions,
    private readonly metrics: MetricsRegistry,
    private readonly tags: Tags,
  ) {
    this.data = {
      id,
      type: 'memory',
      instance: ++instances,
      entries: this.visible,
      reads: new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT),
      readsByKey: options.internal_metrics.include_key_tag,
    };
    this.ttlPath = options.ttl_field === '' ? [] : parseFieldPath(options.ttl_field);

    // Lookups count in shared memory (any thread); the counts move into the registry whenever it is read.
    const reads = new BigInt64Array(this.data.reads);
    const counts = [
      [READS, 'memory_enrichment_table_reads_total'],
      [FAILED_READS, 'memory_enrichment_table_failed_reads'],
    ] as const;
    this.stopCollecting = metrics.collectBeforeReads(() => {
      for (const [slot, name] of counts) {
        const count = Atomics.exchange(reads, slot, 0n);
        if (count > 0n) metrics.counter(name, tags).increment(Number(count));
      }
      for (const [key, found] of takeTableKeyReads(this.data.instance) ?? []) {
        found.forEach((count, slot) => {
          if (count > 0) metrics.counter(counts[slot]![1], { ...tags, key }).increment(count);
        });
      }
    });
  }

  /** Where each flush's changes go (the transform workers). */
  publishTo(send: (changes: MemoryTableChanges) => void): void {
    this.sendChanges = send;
  }

  /** Calls `listener` with the entries each flush removes (`source_config.export_expired_items`). */
  onExpired(listener: (entries: ExpiredEntries) => void): () => void {
    this.expiredListeners.add(listener);
    return () => this.expiredListeners.delete(listener);
  }

  /** The table is no longer used (a reload dropped or replaced it). */
  close(): void {
    this.stopCollecting();
    this.sendChanges = () => {};
    this.expiredListeners.clear();
  }

  /** Starts with the rows of the table this one replaces on a reload (`reload_behavior: preserve-state`), its
   * pending writes included, each with its own write time and TTL. */
  takeOver(previous: MemoryTable): void {
    for (const [key, entry] of [...previous.visible, ...previous.pending]) this.makeVisible(key, entry);
    this.byteSize = this.visibleSize;
  }

  /** Sets or (null) removes `key` in the visible map, keeping its size. */
  private makeVisible(key: string, entry: MemoryEntry | null): void {
    this.visibleSize -= this.visible.get(key)?.size ?? 0;
    if (entry === null) {
      this.visible.delete(key);
    } else {
      this.visible.set(key, entry);
      this.visibleSize += entry.size;
    }
  }

  /** Writes each top-level field of a log event as the entry of its key; refused past `max_byte_size`. */
  write(fields: Record<string, RemapValue>, now = Date.now()): void {
    for (const [key, field] of Object.entries(fields)) {
      const value = throughJson(field);
      const size = ENTRY_OVERHEAD + Buffer.byteLength(key) + Buffer.byteLength(jsonText(value));
      const max = this.options.max_byte_size;
      if (max !== undefined && this.byteSize + size > max) {
        this.count('memory_enrichment_table_failed_insertions', key);
        continue;
      }
      this.byteSize += size;
      this.count('memory_enrichment_table_insertions_total', key);
      this.pending.set(key, { value, updatedAt: now, ttl: this.ttlOf(field), size });
    }
  }

  /** Marks the visible entries whose TTL ran out for removal, and flushes when there were some. */
  scan(now = Date.now()): void {
    let expired = false;
    for (const [key, entry] of this.visible) {
      if (BigInt(Math.floor((now - entry.updatedAt) / 1000)) > entry.ttl) {
        this.pending.set(key, null);
        this.count('memory_enrichment_table_ttl_expirations', key);
        expired = true;
      }
    }
    if (expired) this.flush();
  }

  /** Makes the pending changes visible, first handing the entries removed to the `expired` listeners. */
  flush(): void {
    if (this.options.source_config?.export_expired_items) {
      const removed: ExpiredEntries = [];
      for (const [key, entry] of this.pending) {
        const before = this.visible.get(key);
        if (entry === null && before !== undefined) removed.push([key, before]);
      }
      if (removed.length > 0) for (const listener of this.expiredListeners) listener(removed);
    }
    this.refresh();
    this.byteSize = this.visibleSize;
    this.counter('memory_enrichment_table_flushes_total').increment();
    this.gauge('memory_enrichment_table_objects_count').set(this.visible.size);
    this.gauge('memory_enrichment_table_byte_size').set(this.visibleSize);
  }

  /**
   * The source's export: the visible entries from `skip` on, at most `limit` of them; with `remove`, they are
   * removed and the removal made visible at once (without a flush's metrics or expired items, as Vector).
   */
  export(skip: number, limit: number, remove: boolean): ExpiredEntries {
    const taken: ExpiredEntries = [];
    let index = 0;
    for (const entry of this.visible) {
      if (taken.length >= limit) break;
      if (index++ >= skip) taken.push(entry);
    }
    if (remove) {
      for (const [key] of taken) this.pending.set(key, null);
      this.refresh();
    }
    return taken;
  }

  /** Applies the pending changes to the visible map and sends them to the other threads. */
  private refresh(): void {
    if (this.pending.size === 0) return;
    const changes = [...this.pending];
    this.pending.clear();
    for (const [key, entry] of changes) this.makeVisible(key, entry);
    this.sendChanges({ id: this.data.id, instance: this.data.instance, changes });
  }

  /** `ttl_field` read in the field's value (an integer, taken as unsigned as Vector does), else `ttl`. */
  private ttlOf(field: RemapValue): bigint {
    let value: RemapValue | undefined = this.ttlPath.length === 0 ? undefined : field;
    for (const segment of this.ttlPath) {
      if (typeof segment === 'number') value = Array.isArray(value) ? value.at(segment) : undefined;
      else value = isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
    }
    return typeof value === 'bigint' ? BigInt.asUintN(64, value) : BigInt(this.options.ttl);
  }

  /** Adds one to a counter of writes and scans, with the `key` tag when `include_key_tag`. */
  private count(name: string, key: string): void {
    if (this.options.internal_metrics.include_key_tag) this.metrics.counter(name, { ...this.tags, key }).increment();
    else this.counter(name).increment();
  }

  private counter(name: string): Counter {
    let counter = this.counters.get(name);
    if (counter === undefined) this.counters.set(name, (counter = this.metrics.counter(name, this.tags)));
    return counter;
  }

  private gauge(name: string): Gauge {
    let gauge = this.gauges.get(name);
    if (gauge === undefined) this.gauges.set(name, (gauge = this.metrics.gauge(name, this.tags)));
    return gauge;
  }
}

/** A value as it reads back from Vector's table, which keeps it as JSON text: bytes, timestamps and regexes as
 * strings, infinite floats as null. */
function throughJson(value: RemapValue): RemapValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'string')
    return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Uint8Array) return lossyUtf8.decode(value);
  if (Array.isArray(value)) return value.map(throughJson);
  if (value instanceof Timestamp) return value.toString();
  if (value instanceof Regex) return value.pattern;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, throughJson(item)]));
}

function isObject(value: RemapValue | undefined): value is Record<string, RemapValue> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
  );
}

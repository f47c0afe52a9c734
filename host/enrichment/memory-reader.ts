// A `memory` enrichment table as the threads that run remap programs read it (host/enrichment/memory-table.ts
// writes it on the main thread): the entries of its last flush, looked up by key as Vector's memory table
// looks them up, and the read counters every thread adds to.

import { Regex, Timestamp, type RemapValue } from '../../abi/values.js';
import {
  displayFloat,
  type EnrichmentCondition,
  type EnrichmentRow,
  type EnrichmentTable,
} from '../../runtime/enrichment.js';

/** One key's entry: its value as Vector keeps it (through JSON), when it was written and its TTL in seconds. */
export interface MemoryEntry {
  value: RemapValue;
  /** Milliseconds since the epoch. */
  updatedAt: number;
  ttl: bigint;
  /** Its share of the table's byte size (`max_byte_size`). */
  size: number;
}

/** Slots of a table's shared read counters (`MemoryTableData.reads`). */
export const READS = 0;
export const FAILED_READS = 1;

/** What a thread is given of a memory table. On the main thread `entries` is the table's own map; a worker gets a
 * copy and then the changes of each flush (`MemoryTableChanges`). */
export interface MemoryTableData {
  id: string;
  type: 'memory';
  /** Tells this table's changes from those of a table of the same name it replaced (a reload). */
  instance: number;
  entries: Map<string, MemoryEntry>;
  /** Two 64-bit counters, `READS` and `FAILED_READS`, added to by every thread's lookups. */
  reads: SharedArrayBuffer;
  /** `internal_metrics.include_key_tag`: lookups are counted per key instead (`KeyReads`). */
  readsByKey: boolean;
}

/** Lookups counted per key, by table instance: `[reads, failed reads]`. A worker sends its counts to the main
 * thread with each reply (`takeKeyReads`, `addKeyReads`), where the table collects them into its metrics. */
export type KeyReads = Map<number, Map<string, [number, number]>>;

let keyReads: KeyReads = new Map();

/** This thread's per-key counts since the last call, which it hands over. */
export function takeKeyReads(): KeyReads | undefined {
  if (keyReads.size === 0) return undefined;
  const taken = keyReads;
  keyReads = new Map();
  return taken;
}

/** Adds counts another thread handed over to this thread's. */
export function addKeyReads(reads: KeyReads): void {
  for (const [instance, byKey] of reads)
    for (const [key, [found, failed]] of byKey) countRead(instance, key, found, failed);
}

function countRead(instance: number, key: string, found: number, failed: number): void {
  let byKey = keyReads.get(instance);
  if (byKey === undefined) keyReads.set(instance, (byKey = new Map()));
  const counts = byKey.get(key);
  if (counts === undefined) byKey.set(key, [found, failed]);
  else {
    counts[0] += found;
    counts[1] += failed;
  }
}

/** The per-key counts of one table taken from this thread's (the main thread's: its own and the workers'). */
export function takeTableKeyReads(instance: number): Map<string, [number, number]> | undefined {
  const byKey = keyReads.get(instance);
  keyReads.delete(instance);
  return byKey;
}

/** What a flush made visible: per key, its new entry or null when removed. */
export interface MemoryTableChanges {
  id: string;
  instance: number;
  changes: Array<[string, MemoryEntry | null]>;
}

export function applyChanges(entries: Map<string, MemoryEntry>, changes: MemoryTableChanges['changes']): void {
  for (const [key, entry] of changes) {
    if (entry === null) entries.delete(key);
    else entries.set(key, entry);
  }
}

/** A row as Vector gives it: `key`, `value` and the seconds of TTL left. */
export function memoryRow(key: string, entry: MemoryEntry, now: number): EnrichmentRow {
  const elapsed = BigInt(Math.max(0, Math.floor((now - entry.updatedAt) / 1000)));
  const left = entry.ttl > elapsed ? entry.ttl - elapsed : 0n;
  return { key, value: entry.value, ttl: left > I64_MAX ? I64_MAX : left };
}

const I64_MAX = 2n ** 63n - 1n;

export class MemoryTableReader implements EnrichmentTable {
  private readonly reads: BigInt64Array;

  constructor(private readonly data: MemoryTableData) {
    this.reads = new BigInt64Array(data.reads);
  }

  /** One condition, an equality on the key (whatever the field is named); case, select and wildcard do not apply. */
  find(conditions: readonly EnrichmentCondition[]): EnrichmentRow[] {
    const condition = conditions[0];
    if (condition === undefined) throw new Error('Key condition must be specified');
    if (conditions.length > 1) throw new Error('Only one condition is allowed');
    if (condition.type !== 'equals') throw new Error('Only equality condition is allowed');
    const key = lossyText(condition.value);
    const entry = this.data.entries.get(key);
    if (this.data.readsByKey)
      countRead(this.data.instance, key, entry === undefined ? 0 : 1, entry === undefined ? 1 : 0);
    else Atomics.add(this.reads, entry === undefined ? FAILED_READS : READS, 1n);
    return entry === undefined ? [] : [memoryRow(key, entry, Date.now())];
  }

  get(conditions: readonly EnrichmentCondition[]): EnrichmentRow {
    const row = this.find(conditions)[0];
    if (row === undefined) throw withoutStack('No rows found');
    return row;
  }
}

/** An error for a key not in the table, a common outcome: only its message is read (runtime/imports.ts), and
 * capturing a stack cost most of a failed lookup. */
function withoutStack(message: string): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new Error(message);
  Error.stackTraceLimit = limit;
  return error;
}

const lossyUtf8 = new TextDecoder('utf-8');

/** VRL's `to_string_lossy`: the text a value is looked up by. */
function lossyText(value: RemapValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number')
    return Number.isFinite(value) ? displayFloat(value).replace(/\.0$/, '') : displayFloat(value);
  if (value === null || typeof value !== 'object') return String(value);
  if (value instanceof Uint8Array) return lossyUtf8.decode(value);
  if (value instanceof Timestamp) return value.toString();
  if (value instanceof Regex) return value.pattern;
  return jsonText(value);
}

/** serde_json's text of a value (objects with their keys sorted, as VRL's are). */
export function jsonText(value: RemapValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'number':
      return Number.isFinite(value) ? displayFloat(value) : 'null';
    case 'string':
      return JSON.stringify(value);
  }
  if (value instanceof Uint8Array) return JSON.stringify(lossyUtf8.decode(value));
  if (value instanceof Timestamp) return JSON.stringify(value.toString());
  if (value instanceof Regex) return JSON.stringify(value.pattern);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  const object = value;
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${jsonText(object[key]!)}`)
    .join(',')}}`;
}

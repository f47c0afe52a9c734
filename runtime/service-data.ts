// Data remap functions read through the instance's services (InstanceServices.metrics and .enrichmentTables): the process's internal
// metrics and its enrichment tables, and an in-memory table set that matches rows as Vector's file tables do.

import { Timestamp, type RemapValue } from '../abi/values.js';

/** One series of the pipeline's telemetry registry (host/telemetry/metrics.ts gives these). */
export interface MetricSample {
  name: string;
  tags: Readonly<Record<string, string>>;
  value:
    | { type: 'counter' | 'gauge'; value: number }
    | { type: 'histogram'; buckets: ReadonlyArray<{ upperLimit: number; count: number }>; count: number; sum: number };
}

/** One condition of an enrichment lookup: a field equal to a value, or a timestamp field within `[from, to]`. */
export type EnrichmentCondition =
  | { type: 'equals'; field: string; value: RemapValue }
  | { type: 'between_dates'; field: string; from: Timestamp; to: Timestamp };

export type EnrichmentRow = Record<string, RemapValue>;

/** One enrichment table, as the lookup functions see it. */
export interface EnrichmentTable {
  /**
   * The rows that meet every condition, limited to the `select` fields when given. A row field equal to
   * `wildcard` meets any equality condition on that field. Throws when the table refuses the conditions.
   */
  find(
    conditions: readonly EnrichmentCondition[],
    select: readonly string[] | undefined,
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): EnrichmentRow[];
  /** The one row `find` would give; throws the table type's own text when none or several match. */
  get(
    conditions: readonly EnrichmentCondition[],
    select: readonly string[] | undefined,
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): EnrichmentRow;
}

export interface EnrichmentTables {
  /** The table named `name`, if loaded. */
  table(name: string): EnrichmentTable | undefined;
}

/** Tables held in memory, by name, matched as Vector's file tables are. */
export function memoryEnrichmentTables(tables: Readonly<Record<string, readonly EnrichmentRow[]>>): EnrichmentTables {
  const byName = new Map(Object.entries(tables).map(([name, rows]) => [name, new RowTable(rows)]));
  return { table: (name) => byName.get(name) };
}

/**
 * Rows matched as Vector's file table matches them. The equality conditions go through an index on their
 * field set (built at its first use, one per field set and case sensitivity); date ranges then filter the
 * rows the index gave, or every row when there is no equality condition.
 */
export class RowTable implements EnrichmentTable {
  private readonly indexes = new Map<string, Map<string, EnrichmentRow[]>>();

  constructor(private readonly rows: readonly EnrichmentRow[]) {}

  find(
    conditions: readonly EnrichmentCondition[],
    select: readonly string[] | undefined,
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): EnrichmentRow[] {
    const matches = (row: EnrichmentRow, condition: EnrichmentCondition) => {
      if (!Object.hasOwn(row, condition.field)) return false;
      const actual = row[condition.field]!;
      if (condition.type === 'between_dates') {
        return (
          actual instanceof Timestamp && condition.from.nanos <= actual.nanos && actual.nanos <= condition.to.nanos
        );
      }
      return (
        fieldEquals(actual, condition.value, caseSensitive) ||
        (wildcard !== undefined && fieldEquals(actual, wildcard, caseSensitive))
      );
    };
    return this.candidates(conditions, caseSensitive, wildcard)
      .filter((row) => conditions.every((condition) => matches(row, condition)))
      .map((row) => (select === undefined ? { ...row } : selectFields(row, select)));
  }

  get(
    conditions: readonly EnrichmentCondition[],
    select: readonly string[] | undefined,
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): EnrichmentRow {
    const rows = this.find(conditions, select, caseSensitive, wildcard);
    if (rows.length === 0) throw new Error('no rows found');
    if (rows.length > 1) throw new Error('More than 1 row found');
    return rows[0]!;
  }

  /** The rows that may meet the equality conditions (a superset: the caller checks each). */
  private candidates(
    conditions: readonly EnrichmentCondition[],
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): readonly EnrichmentRow[] {
    const equals = conditions.filter((condition) => condition.type === 'equals');
    if (equals.length === 0) return this.rows;
    const wanted = equals.map((condition) => indexKey(condition.value, caseSensitive));
    const wild = wildcard === undefined ? undefined : indexKey(wildcard, caseSensitive);
    if (wanted.includes(undefined) || (wildcard !== undefined && wild === undefined)) return this.rows;
    const fields = equals.map((condition) => condition.field);
    const index = this.index(fields, caseSensitive);
    // With a wildcard, each field matches its value or the wildcard: every combination is a key.
    let keys = [''];
    for (const key of wanted) {
      const options = wild === undefined || wild === key ? [key!] : [key!, wild];
      keys = keys.flatMap((prefix) => options.map((option) => `${prefix}${option}\u0000`));
    }
    const found = keys.flatMap((key) => index.get(key) ?? []);
    return keys.length === 1 ? found : [...new Set(found)];
  }

  private index(fields: readonly string[], caseSensitive: boolean): Map<string, EnrichmentRow[]> {
    const name = `${caseSensitive ? 's' : 'i'}${fields.join('\u0000')}`;
    let index = this.indexes.get(name);
    if (index !== undefined) return index;
    index = new Map();
    for (const row of this.rows) {
      const parts = fields.map((field) =>
        Object.hasOwn(row, field) ? indexKey(row[field]!, caseSensitive) : undefined,
      );
      // A row without one of the fields meets no equality on it; an object or array meets none of an indexable value.
      if (parts.includes(undefined)) continue;
      const key = parts.map((part) => `${part}\u0000`).join('');
      const bucket = index.get(key);
      if (bucket === undefined) index.set(key, [row]);
      else bucket.push(row);
    }
    this.indexes.set(name, index);
    return index;
  }
}

/**
 * A value's key in an index: values equal under `fieldEquals` get the same key (others may too: the caller
 * checks). Undefined for a value the index does not hold (objects, arrays).
 */
function indexKey(value: RemapValue, caseSensitive: boolean): string | undefined {
  if (isString(value)) {
    const text = caseSensitive ? undefined : strictText(value);
    if (text !== undefined) return `u${text.toLowerCase()}`;
    const bytes =
      typeof value === 'string' ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.length);
    return `b${bytes.toString('latin1')}`;
  }
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') return `f${value}`;
  if (typeof value === 'boolean') return `B${value}`;
  if (value === null) return 'n';
  if (value instanceof Timestamp) return `t${value.nanos}`;
  return undefined;
}

function selectFields(row: EnrichmentRow, select: readonly string[]): EnrichmentRow {
  const out: EnrichmentRow = {};
  for (const field of select) if (Object.hasOwn(row, field)) out[field] = row[field]!;
  return out;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A string's text, or undefined when it is not valid UTF-8. */
function strictText(value: string | Uint8Array): string | undefined {
  if (typeof value === 'string') return value;
  try {
    return decoder.decode(value);
  } catch {
    return undefined;
  }
}

/** Vector's file-table comparison: case-insensitive only between two valid UTF-8 strings. */
function fieldEquals(actual: RemapValue, wanted: RemapValue, caseSensitive: boolean): boolean {
  if (!caseSensitive && isString(actual) && isString(wanted)) {
    const [a, b] = [strictText(actual), strictText(wanted)];
    if (a !== undefined && b !== undefined) return a.toLowerCase() === b.toLowerCase();
    if (a !== undefined || b !== undefined) return false;
  }
  return remapEquals(actual, wanted);
}

const isString = (value: RemapValue): value is string | Uint8Array =>
  typeof value === 'string' || value instanceof Uint8Array;

/** Remap's `==` on values: kinds must agree (1 is not 1.0), strings compare as bytes. */
function remapEquals(a: RemapValue, b: RemapValue): boolean {
  if (isString(a) || isString(b)) return isString(a) && isString(b) && Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof Timestamp || b instanceof Timestamp) {
    return a instanceof Timestamp && b instanceof Timestamp && a.nanos === b.nanos;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => remapEquals(x, b[i]!));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return a.toString() === b.toString();
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && remapEquals(a[k]!, b[k]!));
}

const isPlainObject = (value: object): value is Record<string, RemapValue> =>
  Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null;

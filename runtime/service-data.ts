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

export interface EnrichmentTables {
  /**
   * The rows of `table` that meet every condition, limited to the `select` fields when given. A row field
   * equal to `wildcard` meets any equality condition on that field. Throws when the table does not exist.
   */
  find(
    table: string,
    conditions: readonly EnrichmentCondition[],
    select: readonly string[] | undefined,
    caseSensitive: boolean,
    wildcard: RemapValue | undefined,
  ): EnrichmentRow[];
}

/** Tables held in memory, by name. */
export function memoryEnrichmentTables(tables: Readonly<Record<string, readonly EnrichmentRow[]>>): EnrichmentTables {
  return {
    find(table, conditions, select, caseSensitive, wildcard) {
      if (!Object.hasOwn(tables, table)) throw new Error(`table ${table} not loaded`);
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
      return tables[table]!.filter((row) => conditions.every((condition) => matches(row, condition))).map((row) =>
        select === undefined ? { ...row } : selectFields(row, select),
      );
    },
  };
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

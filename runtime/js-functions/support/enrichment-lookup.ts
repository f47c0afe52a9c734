// What find_enrichment_table_records and get_enrichment_table_record share: their arguments turned into a
// lookup on the enrichment tables of the instance's services (Vector's `vrl_util`: an object with `from` and `to` is a date range).

import { Timestamp, type RemapValue } from '../../../abi/values.js';
import type { EnrichmentCondition, EnrichmentTable } from '../../service-data.js';
import type { JsCallContext } from '../../imports.js';
import { arrayArg, booleanArg, stringArg, valueKind } from './args.js';

/** A lookup's arguments `[table, condition, select, case_sensitive, wildcard]`, run by `get` or `find`. */
export function lookup<R>(
  args: RemapValue[],
  context: JsCallContext,
  run: (table: EnrichmentTable, ...query: Parameters<EnrichmentTable['find']>) => R,
): R {
  const [table, condition, select, caseSensitive, wildcard] = args;
  const name = stringArg(table!);
  const found = context.enrichmentTables?.table(name);
  if (found === undefined) throw new Error(`table ${name} not loaded`);
  return run(
    found,
    conditions(condition!),
    select === null ? undefined : arrayArg(select!).map(stringArg),
    booleanArg(caseSensitive!, true),
    wildcard === null ? undefined : wildcard,
  );
}

function conditions(value: RemapValue): EnrichmentCondition[] {
  if (!isObject(value)) throw new Error(`expected object, got ${valueKind(value)}`);
  return Object.entries(value).map(([field, wanted]): EnrichmentCondition => {
    if (isObject(wanted) && Object.hasOwn(wanted, 'from') && Object.hasOwn(wanted, 'to')) {
      return { type: 'between_dates', field, from: bound(wanted, 'from'), to: bound(wanted, 'to') };
    }
    return { type: 'equals', field, value: wanted };
  });
}

function bound(range: Record<string, RemapValue>, end: 'from' | 'to'): Timestamp {
  const value = range[end];
  if (value instanceof Timestamp) return value;
  throw new Error(`${end} in condition must be a timestamp`);
}

function isObject(value: RemapValue | undefined): value is Record<string, RemapValue> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

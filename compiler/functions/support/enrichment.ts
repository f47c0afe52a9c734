// Parameters shared by the enrichment-table lookups (find_enrichment_table_records, get_enrichment_table_record).
import { K } from '../../types/kind.js';
import type { CallInfo, ArgumentError, Parameter } from '../define.js';
import { invalidEnumVariant } from './arguments.js';

export const ENRICHMENT_LOOKUP_PARAMETERS: readonly Parameter[] = [
  { name: 'table', kinds: K.Bytes, required: true, literal: true },
  { name: 'condition', kinds: K.Object, required: true },
  { name: 'select', kinds: K.Array, required: false },
  { name: 'case_sensitive', kinds: K.Boolean, required: false, default: 'true', literal: true },
  { name: 'wildcard', kinds: K.Bytes, required: false },
];

/** Vector's check of the table: with the tables known at compile time, `table` must name one (an enum of them). */
export function validateEnrichmentTable(call: CallInfo): ArgumentError | undefined {
  const table = call.args.table;
  const known = call.enrichmentTables;
  if (known === undefined || table?.constant?.kind !== 'string' || known.includes(table.constant.value))
    return undefined;
  return invalidEnumVariant('table', table.text, known);
}

// Parameters shared by the enrichment-table lookups (find_enrichment_table_records, get_enrichment_table_record).
import { K } from '../../types/kind.js';
import type { Parameter } from '../define.js';

export const ENRICHMENT_LOOKUP_PARAMETERS: readonly Parameter[] = [
  { name: 'table', kinds: K.Bytes, required: true, literal: true },
  { name: 'condition', kinds: K.Object, required: true },
  { name: 'select', kinds: K.Array, required: false },
  { name: 'case_sensitive', kinds: K.Boolean, required: false, default: 'true', literal: true },
  { name: 'wildcard', kinds: K.Bytes, required: false },
];

// get_enrichment_table_record(table, condition, select, case_sensitive, wildcard): the one matching row; fails
// with Vector's file-table texts when none or several match.

import type { JsFunction } from '../imports.js';
import { lookupRows } from './support/enrichment-lookup.js';

export const get_enrichment_table_record: JsFunction = (args, context) => {
  const rows = lookupRows(args, context);
  if (rows.length === 0) throw new Error('no rows found');
  if (rows.length > 1) throw new Error('More than 1 row found');
  return rows[0]!;
};

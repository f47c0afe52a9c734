// get_enrichment_table_record(table, condition, select, case_sensitive, wildcard): the one matching row; fails
// with the table type's texts (Vector's) when none or several match.

import type { JsFunction } from '../imports.js';
import { lookup } from './support/enrichment-lookup.js';

export const get_enrichment_table_record: JsFunction = (args, context) =>
  lookup(args, context, (table, ...query) => table.get(...query));

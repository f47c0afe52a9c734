// find_enrichment_table_records(table, condition, select, case_sensitive, wildcard): the matching rows.

import type { JsFunction } from '../imports.js';
import { lookup } from './support/enrichment-lookup.js';

export const find_enrichment_table_records: JsFunction = (args, context) =>
  lookup(args, context, (table, ...query) => table.find(...query));

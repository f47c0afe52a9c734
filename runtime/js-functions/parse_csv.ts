import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { csvRecords } from './support/csv.js';
import { csvDelimiter } from './support/csv-delimiter.js';

/** `parse_csv(value, delimiter = ",")`: the first record of the text as the csv crate reads it, without headers
 * (support/csv.ts); no record gives an empty array. */
export const parse_csv: JsFunction = ([value, delimiter]) => {
  const first = csvRecords(stringArg(value!), csvDelimiter(delimiter!)).next();
  return first.done ? [] : first.value.fields;
};

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { csvDelimiter } from './support/csv-delimiter.js';

/**
 * `parse_csv(value, delimiter = ",")`: the first record of the text as the csv crate reads it (no headers):
 * fields in `"` may hold delimiters, line breaks and `""` for a quote; a quote inside an unquoted field is
 * kept; `\n`, `\r` or `\r\n` ends the record and empty lines are skipped. No record gives an empty array.
 */
export const parse_csv: JsFunction = ([value, delimiter]) => {
  const text = stringArg(value!);
  const separator = csvDelimiter(delimiter!);
  let at = 0;
  while (at < text.length && (text[at] === '\n' || text[at] === '\r')) at++;
  if (at === text.length) return [];
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (; at < text.length; at++) {
    const c = text[at]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[at + 1] === '"') field += text[++at];
      else quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === separator) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      break;
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
};

import type { RemapValue } from '../../../abi/values.js';
import { stringArg } from './args.js';

/** The `delimiter` argument of parse_csv and encode_csv: one byte (`,` when absent), as the csv crate takes it. */
export function csvDelimiter(delimiter: RemapValue): string {
  if (delimiter === null) return ',';
  const text = stringArg(delimiter);
  if (text.length !== 1 || text.charCodeAt(0) > 0x7f) throw new Error('delimiter must be a single character');
  return text;
}

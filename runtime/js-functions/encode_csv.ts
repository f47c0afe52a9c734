import type { JsFunction } from '../imports.js';
import { Timestamp, type RemapValue } from '../../abi/values.js';
import { valueKind } from './support/args.js';
import { csvDelimiter } from './support/csv-delimiter.js';

/**
 * `encode_csv(value, delimiter = ",")`: the array's items as one CSV record without a terminator, quoted as
 * the csv crate does by default (a field holding the delimiter, `"`, `\r` or `\n`, or a lone empty field).
 */
export const encode_csv: JsFunction = ([value, delimiter]) => {
  if (!Array.isArray(value)) throw new Error(`expected array, got ${valueKind(value!)}`);
  const separator = csvDelimiter(delimiter!);
  const fields = value.map(fieldText);
  return fields
    .map((field) =>
      /["\r\n]/.test(field) || field.includes(separator) || (field === '' && fields.length === 1)
        ? `"${field.replaceAll('"', '""')}"`
        : field,
    )
    .join(separator);
};

/** A field's text: strings as they are, scalars as VRL writes them; containers are refused. */
function fieldText(item: RemapValue): string {
  if (typeof item === 'string') return item;
  if (item instanceof Uint8Array) return new TextDecoder().decode(item);
  if (item === null) return '';
  if (typeof item === 'bigint' || typeof item === 'boolean' || item instanceof Timestamp) return String(item);
  if (typeof item === 'number') return String(item);
  throw new Error(`expected string, integer, float, boolean, timestamp or null, got ${valueKind(item)}`);
}

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';

/**
 * `parse_query_string(value)`: form-urlencoded pairs (`+` as space, percent-decoding, a leading `?`
 * dropped); a repeated key collects its values in an array.
 */
export const parse_query_string: JsFunction = ([value]) => {
  const result: Record<string, RemapValue> = Object.create(null);
  for (const [key, item] of queryPairs(stringArg(value!))) {
    const previous = result[key];
    if (previous === undefined) result[key] = item;
    else if (Array.isArray(previous)) previous.push(item);
    else result[key] = [previous, item];
  }
  return result;
};

/**
 * The decoded pairs of a query string: WHATWG's form-urlencoded parser, as Rust's `form_urlencoded`
 * (URLSearchParams drops one leading `?` itself).
 */
function queryPairs(query: string): URLSearchParams {
  return new URLSearchParams(query);
}

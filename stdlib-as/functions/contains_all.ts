import { Value, TRUE, FALSE, bytesPtr, bytesLen, arrayLen, arrayGet } from '../value';
import { expectKinds, optionalBool } from './support/args';
import { lossy, findBytes } from './support/text';
import { changeCase } from './support/case';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `contains_all(value, substrings, case_sensitive = true)`: whether every substring occurs in the value;
 * case-insensitive compares the lower-cased texts. The first missing substring answers false before later
 * items are checked, as in VRL.
 */
export function fn_contains_all(value: Value, substrings: Value, caseSensitive: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(substrings, KindBit.Array)) return 0;
  const sensitive = optionalBool(caseSensitive, true);
  if (sensitive < 0) return 0;
  const text = sensitive ? lossy(value) : changeCase(value, false);
  for (let i: usize = 0; i < arrayLen(substrings); i++) {
    const item = arrayGet(substrings, i);
    if (!expectKinds(item, KindBit.Bytes)) return 0;
    const part = sensitive ? lossy(item) : changeCase(item, false);
    if (findBytes(bytesPtr(text), bytesLen(text), 0, bytesPtr(part), bytesLen(part)) < 0) return FALSE;
  }
  return TRUE;
}

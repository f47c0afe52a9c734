import { Value, bytesPtr, bytesLen, newBool } from '../value';
import { findBytes } from './support/text';
import { prepareSubstringMatch, matchText, matchPart } from './support/substring';

/** `contains(value, substring, case_sensitive = true)`. */
export function fn_contains(value: Value, substring: Value, caseSensitive: Value): Value {
  if (!prepareSubstringMatch(value, substring, caseSensitive)) return 0;
  return newBool(findBytes(bytesPtr(matchText), bytesLen(matchText), 0, bytesPtr(matchPart), bytesLen(matchPart)) >= 0);
}

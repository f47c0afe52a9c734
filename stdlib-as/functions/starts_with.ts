import { Value, bytesPtr, bytesLen, newBool } from '../value';
import { bytesAt } from './support/text';
import { prepareSubstringMatch, matchText, matchPart } from './support/substring';

/** `starts_with(value, substring, case_sensitive = true)`. */
export function fn_starts_with(value: Value, substring: Value, caseSensitive: Value): Value {
  if (!prepareSubstringMatch(value, substring, caseSensitive)) return 0;
  return newBool(bytesAt(bytesPtr(matchText), bytesLen(matchText), 0, bytesPtr(matchPart), bytesLen(matchPart)));
}

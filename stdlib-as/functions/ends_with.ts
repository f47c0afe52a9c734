import { Value, bytesPtr, bytesLen, newBool } from '../value';
import { bytesAt } from './support/text';
import { prepareSubstringMatch, matchText, matchPart } from './support/substring';

/** `ends_with(value, substring, case_sensitive = true)`. */
export function fn_ends_with(value: Value, substring: Value, caseSensitive: Value): Value {
  if (!prepareSubstringMatch(value, substring, caseSensitive)) return 0;
  const len = bytesLen(matchText);
  const partLen = bytesLen(matchPart);
  return newBool(partLen <= len && bytesAt(bytesPtr(matchText), len, len - partLen, bytesPtr(matchPart), partLen));
}

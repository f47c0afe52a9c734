// Shared by `contains`, `starts_with` and `ends_with`: argument checks and the texts they compare.

import { Value, boolOf } from '../../value';
import { expectKinds } from './args';
import { lossy } from './text';
import { changeCase } from './case';
import { KindBit } from '../../../abi/wire/kinds';

/** Set by `prepareSubstringMatch`: the value's and the substring's text, lower-cased when case-insensitive. */
export let matchText: Value = 0;
export let matchPart: Value = 0;

/** Checks the argument kinds and sets matchText/matchPart; false (message recorded) on a kind error. */
export function prepareSubstringMatch(value: Value, substring: Value, caseSensitive: Value): bool {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(substring, KindBit.Bytes)) return false;
  if (caseSensitive != 0 && !expectKinds(caseSensitive, KindBit.Boolean)) return false;
  if (caseSensitive == 0 || boolOf(caseSensitive)) {
    matchText = lossy(value);
    matchPart = lossy(substring);
  } else {
    matchText = changeCase(value, false);
    matchPart = changeCase(substring, false);
  }
  return true;
}

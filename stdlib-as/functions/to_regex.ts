// `to_regex(value)`: compiles a string into a regex at run time.

import { Value, bytesPtr, bytesLen } from '../value';
import { failPrefixed } from '../error';
import { compileRegexChecked } from '../regex';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_to_regex(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const regex = compileRegexChecked(bytesPtr(value), bytesLen(value));
  return regex != 0 ? regex : failPrefixed('could not create regex: ');
}

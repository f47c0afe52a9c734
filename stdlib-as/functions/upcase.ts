import { Value } from '../value';
import { expectKinds } from './support/args';
import { changeCase } from './support/case';
import { KindBit } from '../../abi/wire/kinds';

/** `upcase(value)`: Rust's `to_uppercase` of the lossy UTF-8 text. */
export function fn_upcase(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  return changeCase(value, true);
}

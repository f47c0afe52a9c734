import { Value } from '../value';
import { expectKinds } from './support/args';
import { changeCase } from './support/case';
import { KindBit } from '../../abi/wire/kinds';

/** `downcase(value)`: Rust's `to_lowercase` of the lossy UTF-8 text. */
export function fn_downcase(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  return changeCase(value, false);
}

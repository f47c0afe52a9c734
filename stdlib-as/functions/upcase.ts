import { Value } from '../value';
import { expectKinds, KindBit } from './args';
import { changeCase } from './case';

/** `upcase(value)`: Rust's `to_uppercase` of the lossy UTF-8 text. */
export function fn_upcase(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  return changeCase(value, true);
}

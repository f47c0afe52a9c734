// `encode_logfmt(value, fields_ordering = [])`: encode_key_value with `=`, spaces and flattened booleans.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { encodeKeyValue } from './encode_key_value';
import { EQUALS, SPACE } from '../codec/key-value';
import { KindBit } from '../../abi/wire/kinds';

export function fn_encode_logfmt(value: Value, fieldsOrdering: Value): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  return encodeKeyValue(value, fieldsOrdering, EQUALS, 1, SPACE, 1, true);
}

// `encode_logfmt(value, fields_ordering = [])`: encode_key_value with `=`, spaces and flattened booleans.

import { Value } from '../value';
import { expectKinds, KindBit } from './args';
import { encodeKeyValue } from './encode_key_value';
import { EQUALS, SPACE } from '../codec/key-value';

export function fn_encode_logfmt(value: Value, fieldsOrdering: Value): Value {
  if (!expectKinds(value, KindBit.Object)) return 0;
  return encodeKeyValue(value, fieldsOrdering, EQUALS, 1, SPACE, 1, true);
}

// encode_json(value, pretty): any value as JSON text (serde_json's compact or pretty format).

import { Value, boolOf } from '../value';
import { encodeJson } from '../codec/json';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_encode_json(value: Value, pretty: Value): Value {
  if (pretty != 0 && !expectKinds(pretty, KindBit.Boolean)) return 0;
  return encodeJson(value, pretty != 0 && boolOf(pretty));
}

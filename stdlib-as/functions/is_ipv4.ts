// `is_ipv4(value)`: whether the string is an IPv4 address.

import { Value, newBool, bytesPtr, bytesLen, alloc } from '../value';
import { expectKinds } from './support/args';
import { parseIpv4 } from '../ip';
import { KindBit } from '../../abi/wire/kinds';

export function fn_is_ipv4(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  return newBool(parseIpv4(bytesPtr(value), bytesLen(value), alloc(4)));
}

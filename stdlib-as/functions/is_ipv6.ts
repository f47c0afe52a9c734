// `is_ipv6(value)`: whether the string is an IPv6 address.

import { Value, newBool, bytesPtr, bytesLen, alloc } from '../value';
import { expectKinds } from './support/args';
import { parseIpv6 } from '../ip';
import { KindBit } from '../../abi/wire/kinds';

export function fn_is_ipv6(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  return newBool(parseIpv6(bytesPtr(value), bytesLen(value), alloc(16)));
}

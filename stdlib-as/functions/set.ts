// `set(value, path, data)`: a copy of `value` with `data` at the path, created as assignment creates it.

import { Value, alloc, share } from '../value';
import { path_set } from '../path';
import { expectKinds } from './support/args';
import { pathDescriptor } from './support/value-path';
import { KindBit } from '../../abi/wire/kinds';

export function fn_set(value: Value, path: Value, data: Value): Value {
  if (!expectKinds(value, KindBit.Object | KindBit.Array)) return 0;
  const descriptor = pathDescriptor(path);
  if (descriptor == 0) return 0;
  // The argument is shared, so the write copies whatever it changes instead of mutating the caller's value.
  const cell = alloc(4);
  store<u32>(cell, share(value));
  return path_set(cell, descriptor, share(data)) ? <Value>load<u32>(cell) : 0;
}

/** `x = set(x, path, data)` (as `push_in_place`): the object or array in `x` changes in place unless shared. */
export function set_in_place(value: Value, path: Value, data: Value): Value {
  if (!expectKinds(value, KindBit.Object | KindBit.Array)) return 0;
  const descriptor = pathDescriptor(path);
  if (descriptor == 0) return 0;
  const cell = alloc(4);
  store<u32>(cell, value);
  return path_set(cell, descriptor, share(data)) ? <Value>load<u32>(cell) : 0;
}

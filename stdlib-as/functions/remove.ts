// `remove(value, path, compact = false)`: a copy of `value` without what is at the path; with `compact`,
// containers left empty are removed too.

import { Value, alloc, share } from '../value';
import { path_remove } from '../path';
import { expectKinds, optionalBool } from './support/args';
import { pathDescriptor } from './support/value-path';
import { KindBit } from '../../abi/wire/kinds';

export function fn_remove(value: Value, path: Value, compact: Value): Value {
  if (!expectKinds(value, KindBit.Object | KindBit.Array)) return 0;
  const descriptor = pathDescriptor(path);
  if (descriptor == 0) return 0;
  const compacting = optionalBool(compact, false);
  if (compacting < 0) return 0;
  const cell = alloc(4);
  store<u32>(cell, share(value));
  path_remove(cell, descriptor, compacting);
  return load<u32>(cell);
}

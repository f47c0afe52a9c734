// `get(value, path)`: the value at a path given as an array of fields and indexes; null when absent.

import { Value } from '../value';
import { path_get } from '../path';
import { expectKinds } from './support/args';
import { pathDescriptor } from './support/value-path';
import { KindBit } from '../../abi/wire/kinds';

export function fn_get(value: Value, path: Value): Value {
  if (!expectKinds(value, KindBit.Object | KindBit.Array)) return 0;
  const descriptor = pathDescriptor(path);
  if (descriptor == 0) return 0;
  return path_get(value, descriptor);
}

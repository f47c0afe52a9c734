// `zip(array_0, array_1)`: arrays of the items at the same index, as long as the shortest input; with one
// argument, `array_0` is the array of arrays to zip.

import { Value, newArray, arrayLen, arrayGet, arrayPush, share } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_zip(array0: Value, array1: Value): Value {
  if (!expectKinds(array0, KindBit.Array)) return 0;
  if (array1 != 0) {
    if (!expectKinds(array1, KindBit.Array)) return 0;
    const pair = newArray(2);
    arrayPush(pair, array0);
    arrayPush(pair, array1);
    return zipArrays(pair);
  }
  for (let i: usize = 0, n = arrayLen(array0); i < n; i++) {
    if (!expectKinds(arrayGet(array0, i), KindBit.Array)) return 0;
  }
  return zipArrays(array0);
}

/** Zips the arrays in `arrays` (none: no tuples). */
function zipArrays(arrays: Value): Value {
  const count = arrayLen(arrays);
  if (count == 0) return newArray(0);
  let shortest = arrayLen(arrayGet(arrays, 0));
  for (let k: usize = 1; k < count; k++) {
    const len = arrayLen(arrayGet(arrays, k));
    if (len < shortest) shortest = len;
  }
  const zipped = newArray(shortest);
  for (let i: usize = 0; i < shortest; i++) {
    const tuple = newArray(count);
    for (let k: usize = 0; k < count; k++) arrayPush(tuple, share(arrayGet(arrayGet(arrays, k), i)));
    arrayPush(zipped, tuple);
  }
  return zipped;
}

// Paths given as array values (`get`, `set`, `remove`): `["foo", "bar", 1, -1]` turned into the path
// descriptor path.ts reads (see docs/abi.md §8), so the functions share the path reads and writes of `.a.b`.

import { Value, Tag, tagOf, bytesPtr, bytesLen, intOf, arrayLen, arrayGet, alloc, copyMemory } from '../../value';
import { fail } from '../../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../../buffer';
import { expectKinds } from './args';
import { lossy } from './text';
import { KindBit } from '../../../abi/wire/kinds';
import { writeValueKind } from '../../kind-names';

/** The descriptor of a path array; 0 (message pending) when a segment is neither a string nor an integer. */
export function pathDescriptor(path: Value): usize {
  if (!expectKinds(path, KindBit.Array)) return 0;
  const n = arrayLen(path);
  let size: usize = 4;
  for (let i: usize = 0; i < n; i++) {
    const segment = arrayGet(path, i);
    const tag = tagOf(segment);
    if (tag == Tag.Bytes) size += 8 + ((bytesLen(lossy(segment)) + 3) & ~3);
    else if (tag == Tag.Int) size += 12;
    else return failSegment(segment);
  }
  const descriptor = alloc(size);
  store<u32>(descriptor, <u32>n);
  let at = descriptor + 4;
  for (let i: usize = 0; i < n; i++) {
    const segment = arrayGet(path, i);
    if (tagOf(segment) == Tag.Int) {
      store<u32>(at, 1);
      store<i64>(at + 4, intOf(segment));
      at += 12;
      continue;
    }
    const field = lossy(segment);
    const len = bytesLen(field);
    store<u32>(at, 0);
    store<u32>(at + 4, <u32>len);
    copyMemory(at + 8, bytesPtr(field), len);
    at += 8 + ((len + 3) & ~3);
  }
  return descriptor;
}

function failSegment(segment: Value): usize {
  const b = bufferNew(64);
  bufferAscii(b, 'path segment must be either string or integer, not ');
  writeValueKind(b, segment);
  return fail(bufferData(b), bufferLength(b));
}

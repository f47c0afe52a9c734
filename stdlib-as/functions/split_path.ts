import { Value, newArray, arrayPush, newBytes } from '../value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { pathStart, pathPtr, prefixLen, nextComponent, componentStart } from './support/file-path';
import { KindBit } from '../../abi/wire/kinds';

/** `split_path(value)`: the path's components (Rust's `Path::components`): `/` for the root, then the names. */
export function fn_split_path(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  pathStart(lossy(value));
  const parts = newArray(8);
  if (prefixLen > 0) arrayPush(parts, newBytes(pathPtr, 1));
  for (let end = nextComponent(prefixLen); end != 0; end = nextComponent(end + 1)) {
    arrayPush(parts, newBytes(pathPtr + componentStart, end - componentStart));
  }
  return parts;
}

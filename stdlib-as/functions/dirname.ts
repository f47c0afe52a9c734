import { Value, newBytes } from '../value';
import { textBytes } from '../error';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { pathStart, pathPtr, hasRoot, lastComponent, trimmedEnd } from './support/file-path';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `dirname(value)`: the path without its last component (Rust's `Path::parent`); `.` when that leaves
 * nothing, and `/` for the root itself.
 */
export function fn_dirname(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  pathStart(lossy(value));
  const start = lastComponent();
  if (start < 0) return textBytes(hasRoot ? '/' : '.');
  const end = trimmedEnd(<usize>start);
  return end == 0 ? textBytes('.') : newBytes(pathPtr, end);
}

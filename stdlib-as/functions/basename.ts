import { Value, NULL, newBytes } from '../value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { pathStart, pathPtr, lastComponent, lastComponentEnd } from './support/file-path';
import { KindBit } from '../../abi/wire/kinds';

/** `basename(value)`: the last component of the path when it is a name (not the root, `.` or `..`), else null. */
export function fn_basename(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  pathStart(lossy(value));
  const start = lastComponent();
  if (start < 0) return NULL;
  const len = lastComponentEnd - <usize>start;
  if (len == 2 && load<u16>(pathPtr + <usize>start) == 0x2e2e) return NULL;
  return newBytes(pathPtr + <usize>start, len);
}

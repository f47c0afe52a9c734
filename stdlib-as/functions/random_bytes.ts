import { Value, intOf, newBytes } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { randomBlock } from './support/random';
import { KindBit } from '../../abi/wire/kinds';

const MAX_LENGTH: i64 = 64 * 1024;

/** `random_bytes(length)`: `length` (0 to 64 KiB) random bytes. */
export function fn_random_bytes(length: Value): Value {
  if (!expectKinds(length, KindBit.Integer)) return 0;
  const n = intOf(length);
  if (n < 0) return failWith('Length cannot be negative');
  if (n > MAX_LENGTH) return failWith('Length is too large. Maximum is 64k');
  return newBytes(randomBlock(<usize>n), <usize>n);
}

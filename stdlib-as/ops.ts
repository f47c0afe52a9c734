// VRL's operators on values: arithmetic, comparison, equality, object merge and negation (`&&`/`||` are
// in logic.ts). Each returns the result or 0 with VRL's runtime error text. Integer arithmetic wraps on
// overflow, as VRL's does; a float result that would be NaN is an error (VRL 0.35; before, it became
// 0.0); infinities stay.

import {
  Value,
  Tag,
  NULL,
  TRUE,
  FALSE,
  tagOf,
  newBool,
  newInt,
  newFloat,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  allocBytes,
  alloc,
  arenaRoom,
  arenaGeneration,
  copyMemory,
  newBytes,
  regexPatternPtr,
  regexPatternLen,
  arrayLen,
  arrayGet,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectMerged,
  objectMergeInto,
  owned,
  compareBytes,
  trapWith,
} from './value';
import { TrapCause } from '../abi/wire/batch';
import { fail, failWith } from './error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from './buffer';
import { writeValueKind } from './kind-names';
import { mayDescend } from './depth';

// ---- error messages ------------------------------------------------------------------------------------

/** Records `before` + kind of `x` + `between` + kind of `y` as the message; returns 0. */
function failKinds(before: string, x: Value, between: string, y: Value): Value {
  const b = bufferNew(64);
  bufferAscii(b, before);
  writeValueKind(b, x);
  bufferAscii(b, between);
  writeValueKind(b, y);
  return fail(bufferData(b), bufferLength(b));
}

/** `expected <kind>, got <kind of v>` (VRL's `try_bytes`, `try_timestamp`, `try_boolean`). */
function failExpected(expected: string, v: Value): Value {
  const b = bufferNew(48);
  bufferAscii(b, 'expected ');
  bufferAscii(b, expected);
  bufferAscii(b, ', got ');
  writeValueKind(b, v);
  return fail(bufferData(b), bufferLength(b));
}

// ---- arithmetic ----------------------------------------------------------------------------------------

function floatResult(f: f64): Value {
  return f != f ? failWith('operation would produce NaN') : newFloat(f);
}

// @ts-ignore: decorator
@inline function isNumber(v: Value): bool {
  const tag = tagOf(v);
  return tag == Tag.Int || tag == Tag.Float;
}

/** A number as f64 (the caller checked `isNumber`). */
// @ts-ignore: decorator
@inline function toF64(v: Value): f64 {
  return tagOf(v) == Tag.Int ? <f64>intOf(v) : floatOf(v);
}

const enum Arith {
  Add,
  Sub,
  Mul,
}

/**
 * `+ - *` on two numbers: an integer with a float gives a float, an integer on the left otherwise takes
 * the right side as an integer (VRL's rule), a float on the left gives a float.
 */
function arithmetic(op: Arith, a: Value, b: Value): Value {
  if (tagOf(a) == Tag.Int && tagOf(b) == Tag.Int) {
    const x = intOf(a);
    const y = intOf(b);
    return newInt(op == Arith.Add ? x + y : op == Arith.Sub ? x - y : x * y);
  }
  const x = toF64(a);
  const y = toF64(b);
  return floatResult(op == Arith.Add ? x + y : op == Arith.Sub ? x - y : x * y);
}

export function op_add(a: Value, b: Value): Value {
  const ta = tagOf(a);
  const tb = tagOf(b);
  if (isNumber(a) && isNumber(b)) return arithmetic(Arith.Add, a, b);
  if (ta == Tag.Bytes && tb == Tag.Bytes) return concat(a, b);
  if (ta == Tag.Bytes && tb == Tag.Null) return a;
  if (ta == Tag.Null && tb == Tag.Bytes) return b;
  return failKinds("can't add type ", b, ' to ', a);
}

/**
 * The last concatenation's result, and the end of the room left unused after its bytes (for this arena
 * generation only). `s = s + text` in a loop copied `s` on every turn: quadratic in time and, as the arena
 * frees nothing until the run is done, in memory. Appending to that result instead writes `text` into the
 * room and returns a longer view of the same bytes: strings are immutable views, so the shorter result, if
 * anything still holds it, reads what it did; and only the newest result may grow, so two views never write
 * the same room.
 */
let grown: Value = 0;
let grownRoomEnd: usize = 0;
let grownGeneration: u32 = 0;

function concat(a: Value, b: Value): Value {
  const la = bytesLen(a);
  const lb = bytesLen(b);
  if (<u64>la + <u64>lb > <u64>u32.MAX_VALUE) trapWith(TrapCause.AddressSpace);
  const needed = la + lb;
  const chained = a == grown && grownGeneration == arenaGeneration();
  const end = bytesPtr(a) + la;
  if (chained && end <= grownRoomEnd && lb <= grownRoomEnd - end) {
    copyMemory(end, bytesPtr(b), lb);
    grown = newBytes(bytesPtr(a), needed);
    return grown;
  }
  // A chain gets room to grow: as much again when memory holds it without growing, less when it does not
  // (near the memory limit, growing would fail where the exact size fits).
  let room: usize = 0;
  if (chained) {
    const free = arenaRoom();
    room = free > needed ? (free - needed < needed ? free - needed : needed) : 0;
  }
  const data = alloc(needed + room);
  copyMemory(data, bytesPtr(a), la);
  copyMemory(data + la, bytesPtr(b), lb);
  grown = newBytes(data, needed);
  grownRoomEnd = data + needed + room;
  grownGeneration = arenaGeneration();
  return grown;
}

export function op_sub(a: Value, b: Value): Value {
  if (isNumber(a) && isNumber(b)) return arithmetic(Arith.Sub, a, b);
  return failKinds("can't subtract type ", b, ' from ', a);
}

/** `*`: numbers, or a string repeated an integer number of times (none when negative), either side. */
export function op_mul(a: Value, b: Value): Value {
  if (isNumber(a) && isNumber(b)) return arithmetic(Arith.Mul, a, b);
  if (tagOf(a) == Tag.Int && tagOf(b) == Tag.Bytes) return repeat(b, intOf(a));
  if (tagOf(a) == Tag.Bytes && tagOf(b) == Tag.Int) return repeat(a, intOf(b));
  return failKinds("can't multiply type ", a, ' by ', b);
}

function repeat(s: Value, times: i64): Value {
  const len = bytesLen(s);
  const count: u64 = times < 0 ? 0 : <u64>times;
  // `len * count` wraps u64 only for counts of 2^32 and more, already too many for a non-empty string.
  if (len != 0 && count > <u64>u32.MAX_VALUE) trapWith(TrapCause.AddressSpace);
  const total = <u64>len * count;
  if (total > <u64>u32.MAX_VALUE) trapWith(TrapCause.AddressSpace);
  const size = <usize>total;
  const out = allocBytes(size);
  const start = bytesPtr(out);
  if (size == 0) return out;
  memory.copy(start, bytesPtr(s), len);
  // Doubling what is already copied: ~32 copies, not one per repetition (`"ab" * 147483648` took a second).
  for (let done = <usize>len; done < size; ) {
    const n = min(done, size - done);
    memory.copy(start + done, start, n);
    done += n;
  }
  return out;
}

// @ts-ignore: decorator
@inline function isZero(v: Value): bool {
  const tag = tagOf(v);
  return (tag == Tag.Int && intOf(v) == 0) || (tag == Tag.Float && floatOf(v) == 0.0);
}

/** `/` always gives a float. The right side is checked first: `"s" / 0` is a division by zero. */
export function op_div(a: Value, b: Value): Value {
  if (!isNumber(b)) return failKinds("can't divide type ", a, ' by ', b);
  if (isZero(b)) return failWith("can't divide by zero");
  if (!isNumber(a)) return failKinds("can't divide type ", a, ' by ', b);
  return floatResult(toF64(a) / toF64(b));
}

/** `%`: two integers give an integer, a float on either side a float (with the dividend's sign, as in Rust). */
export function op_rem(a: Value, b: Value): Value {
  if (isZero(b)) return failWith("can't divide by zero");
  if (isNumber(a) && isNumber(b)) {
    if (tagOf(a) == Tag.Int && tagOf(b) == Tag.Int) return newInt(intOf(a) % intOf(b));
    return floatResult(toF64(a) % toF64(b));
  }
  return failKinds("can't calculate remainder of type ", a, ' and ', b);
}

// ---- comparison ----------------------------------------------------------------------------------------

const enum Cmp {
  Lt,
  Le,
  Gt,
  Ge,
}

/**
 * `< <= > >=`: numbers (integers and floats mixed), strings byte-wise, timestamps. The errors are VRL's
 * own, including its slips: `<`, `<=` and `>=` all say `can't compare a >= b`, and `>` says
 * `can't calculate remainder of type a and b`. A string or timestamp on the left reports the right side
 * as `expected string, got …`.
 */
function compare(op: Cmp, a: Value, b: Value): Value {
  const ta = tagOf(a);
  const tb = tagOf(b);
  let order: i32;
  if (isNumber(a) && isNumber(b)) {
    if (ta == Tag.Int && tb == Tag.Int) {
      const x = intOf(a);
      const y = intOf(b);
      order = x < y ? -1 : x > y ? 1 : 0;
    } else {
      const x = toF64(a);
      const y = toF64(b);
      order = x < y ? -1 : x > y ? 1 : 0;
    }
  } else if (ta == Tag.Bytes) {
    if (tb != Tag.Bytes) return failExpected('string', b);
    order = compareBytes(bytesPtr(a), bytesLen(a), bytesPtr(b), bytesLen(b));
  } else if (ta == Tag.Timestamp) {
    if (tb != Tag.Timestamp) return failExpected('timestamp', b);
    const x = timestampSeconds(a);
    const y = timestampSeconds(b);
    const xn = timestampNanos(a);
    const yn = timestampNanos(b);
    order = x < y ? -1 : x > y ? 1 : xn < yn ? -1 : xn > yn ? 1 : 0;
  } else if (op == Cmp.Gt) {
    return failKinds("can't calculate remainder of type ", a, ' and ', b);
  } else {
    return failKinds("can't compare ", a, ' >= ', b);
  }
  switch (op) {
    case Cmp.Lt:
      return newBool(order < 0);
    case Cmp.Le:
      return newBool(order <= 0);
    case Cmp.Gt:
      return newBool(order > 0);
  }
  return newBool(order >= 0);
}

export function op_lt(a: Value, b: Value): Value {
  return compare(Cmp.Lt, a, b);
}
export function op_le(a: Value, b: Value): Value {
  return compare(Cmp.Le, a, b);
}
export function op_gt(a: Value, b: Value): Value {
  return compare(Cmp.Gt, a, b);
}
export function op_ge(a: Value, b: Value): Value {
  return compare(Cmp.Ge, a, b);
}

// ---- equality ------------------------------------------------------------------------------------------

/**
 * Strict structural equality (Rust's `Value == Value`, what `assert_eq` uses): kinds must match, so
 * `1` and `1.0` differ, also inside collections. Floats compare as numbers (`-0.0 == 0.0`), regexes by
 * pattern.
 */
export function value_eq(a: Value, b: Value): bool {
  return valuesEqual(a, b, 0);
}

/** `value_eq` of values nested `depth` levels deep (containers past MAX_VALUE_DEPTH compare unequal). */
function valuesEqual(a: Value, b: Value, depth: i32): bool {
  if (a == b) return true;
  const tag = tagOf(a);
  if (tag != tagOf(b)) return false;
  if (tag >= Tag.Array && !mayDescend(depth)) return false;
  switch (tag) {
    case Tag.Null:
      return true;
    case Tag.Bool:
      return false; // the static records differ
    case Tag.Int:
      return intOf(a) == intOf(b);
    case Tag.Timestamp:
      return timestampSeconds(a) == timestampSeconds(b) && timestampNanos(a) == timestampNanos(b);
    case Tag.Float:
      return floatOf(a) == floatOf(b);
    case Tag.Bytes:
      return compareBytes(bytesPtr(a), bytesLen(a), bytesPtr(b), bytesLen(b)) == 0;
    case Tag.Regex:
      return compareBytes(regexPatternPtr(a), regexPatternLen(a), regexPatternPtr(b), regexPatternLen(b)) == 0;
    case Tag.Array: {
      const n = arrayLen(a);
      if (n != arrayLen(b)) return false;
      for (let i: usize = 0; i < n; i++) if (!valuesEqual(arrayGet(a, i), arrayGet(b, i), depth + 1)) return false;
      return true;
    }
  }
  const n = objectLen(a);
  if (n != objectLen(b)) return false;
  for (let i: usize = 0; i < n; i++) {
    if (compareBytes(objectKeyPtr(a, i), objectKeyLen(a, i), objectKeyPtr(b, i), objectKeyLen(b, i)) != 0) return false;
    if (!valuesEqual(objectValue(a, i), objectValue(b, i), depth + 1)) return false;
  }
  return true;
}

/** `==`: like `value_eq`, except that an integer and a float compare as numbers at the top level. */
function looseEq(a: Value, b: Value): bool {
  const ta = tagOf(a);
  const tb = tagOf(b);
  if ((ta == Tag.Int && tb == Tag.Float) || (ta == Tag.Float && tb == Tag.Int)) return toF64(a) == toF64(b);
  return value_eq(a, b);
}

export function op_eq(a: Value, b: Value): Value {
  return newBool(looseEq(a, b));
}
export function op_ne(a: Value, b: Value): Value {
  return newBool(!looseEq(a, b));
}

// ---- objects and booleans ------------------------------------------------------------------------------

/** `a | b`: a new object with the fields of both; `b`'s win (shallow). */
export function op_merge(a: Value, b: Value): Value {
  if (tagOf(a) != Tag.Object || tagOf(b) != Tag.Object) return failKinds("can't merge type ", b, ' into ', a);
  return objectMerged(a, b);
}

/** `x |= from`, `x` handed over by the compiler as for `merge_in_place`. */
export function op_merge_in_place(a: Value, b: Value): Value {
  if (tagOf(a) != Tag.Object || tagOf(b) != Tag.Object) return failKinds("can't merge type ", b, ' into ', a);
  return objectMergeInto(owned(a), b);
}

/** 1 for true, 0 for false; -1 for anything else, with VRL's `expected boolean, got …` pending. */
export function bool_test(v: Value): i32 {
  if (v == TRUE) return 1;
  if (v == FALSE) return 0;
  failExpected('boolean', v);
  return -1;
}

export function op_not(a: Value): Value {
  const t = bool_test(a);
  if (t < 0) return 0;
  return t == 0 ? TRUE : FALSE;
}

// ---- logic ---------------------------------------------------------------------------------------------
// `a || b` is `a` unless `a` is null or false; `a && b` is false when `a` is null or false, else both
// sides must be booleans. The code generator short-circuits and calls these for the rest.

export function is_falsy(v: Value): bool {
  return v == NULL || v == FALSE;
}

/** `l && r` once `l` is known not to be falsy: a null right side counts as false. */
export function op_and(l: Value, r: Value): Value {
  if (l == TRUE && (r == NULL || tagOf(r) == Tag.Bool)) return r == TRUE ? TRUE : FALSE;
  return failKinds("can't apply an AND to types ", l, ' and ', r);
}

// `log(value, level, rate_limit_secs)`: writes the value (a string as it is, anything else in display form)
// to the host's log at `level`; returns null. As in VRL, the limit is per call site: the compiler passes the
// call's byte offset in the program (`position`, Vector's `vrl_position`), and a call site that wrote within
// the last `rate_limit_secs` seconds drops the message, whatever it says.

import { Value, Tag, NULL, tagOf, intOf, bytesPtr, bytesLen } from '../value';
import { bufferNew, bufferData, bufferLength } from '../buffer';
import { writeDisplay } from '../codec/display';
import { equalsAscii } from '../text';
import { jsNow } from '../clock';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

// @ts-ignore: decorator
@external("svc_js", "log")
declare function jsLog(level: i32, ptr: usize, len: usize, position: i32): void;

const enum Level {
  Trace = 0,
  Debug = 1,
  Info = 2,
  Warn = 3,
  Error = 4,
}

const DEFAULT_RATE_LIMIT_SECS: i64 = 1;

/**
 * The last write of each call site: 256 slots of (u32 position + 1, 0 when free; u32 unused; i64 time written
 * in ns), probed linearly from the position's hash.
 */
const SITE_SLOTS: u32 = 256;
const SITES = memory.data(<i32>(SITE_SLOTS * 16), 8);

export function fn_log(value: Value, level: Value, rateLimitSecs: Value, position: i32): Value {
  if (level != 0 && !expectKinds(level, KindBit.Bytes)) return 0;
  if (rateLimitSecs != 0 && !expectKinds(rateLimitSecs, KindBit.Integer)) return 0;
  const limitSecs = rateLimitSecs != 0 ? intOf(rateLimitSecs) : DEFAULT_RATE_LIMIT_SECS;
  if (!isDue(position, limitSecs)) return NULL;
  let ptr: usize;
  let len: usize;
  if (tagOf(value) == Tag.Bytes) {
    ptr = bytesPtr(value);
    len = bytesLen(value);
  } else {
    const b = bufferNew(64);
    writeDisplay(b, value);
    ptr = bufferData(b);
    len = bufferLength(b);
  }
  const levelNumber = level != 0 ? levelOf(bytesPtr(level), bytesLen(level)) : Level.Info;
  jsLog(levelNumber, ptr, len, position);
  return NULL;
}

/** The level's number; the compiler only lets the parameter's enum values through. */
function levelOf(ptr: usize, len: usize): Level {
  if (equalsAscii(ptr, len, 'trace')) return Level.Trace;
  if (equalsAscii(ptr, len, 'debug')) return Level.Debug;
  if (equalsAscii(ptr, len, 'warn')) return Level.Warn;
  if (equalsAscii(ptr, len, 'error')) return Level.Error;
  return Level.Info;
}

/** Whether the call site at `position` may write now, recording the write when it may. */
function isDue(position: i32, limitSecs: i64): bool {
  if (limitSecs <= 0) return true;
  const slot = siteSlot(position);
  const now = jsNow();
  const last = load<i64>(slot, 8);
  if (load<u32>(slot) == <u32>position + 1 && (now - last) / 1_000_000_000 < limitSecs) return false;
  store<u32>(slot, <u32>position + 1);
  store<i64>(slot, now, 8);
  return true;
}

/** The call site's slot: its own, else a free one, else (more sites than slots) its first, taken over. */
function siteSlot(position: i32): usize {
  const key = <u32>position + 1;
  const first = (key * 0x9e3779b1) >>> 24; // Fibonacci hashing onto the 256 slots
  for (let i: u32 = 0; i < SITE_SLOTS; i++) {
    const slot = SITES + ((<usize>((first + i) & (SITE_SLOTS - 1))) << 4);
    const held = load<u32>(slot);
    if (held == key || held == 0) return slot;
  }
  return SITES + ((<usize>first) << 4);
}

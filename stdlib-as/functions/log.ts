// `log(value, level, rate_limit_secs)`: writes the value (a string as it is, anything else in display form)
// to the host's log at `level`; returns null. A message repeated at the same level within
// `rate_limit_secs` seconds of its last write is dropped.

import { Value, Tag, NULL, tagOf, intOf, bytesPtr, bytesLen } from '../value';
import { bufferNew, bufferData, bufferLength } from '../buffer';
import { writeDisplay } from '../codec/display';
import { equalsAscii } from '../text';
import { jsNow } from '../clock';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

// @ts-ignore: decorator
@external("svc_js", "log")
declare function jsLog(level: i32, ptr: usize, len: usize): void;

const enum Level {
  Trace = 0,
  Debug = 1,
  Info = 2,
  Warn = 3,
  Error = 4,
}

const DEFAULT_RATE_LIMIT_SECS: i64 = 1;

/** Recently written messages: 256 slots of (u32 hash, u32 unused, i64 time written in ns), by hash. */
const RECENT_SLOTS: usize = 256;
const RECENT = memory.data(<i32>(RECENT_SLOTS * 16), 8);

export function fn_log(value: Value, level: Value, rateLimitSecs: Value): Value {
  if (level != 0 && !expectKinds(level, KindBit.Bytes)) return 0;
  if (rateLimitSecs != 0 && !expectKinds(rateLimitSecs, KindBit.Integer)) return 0;
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
  const limitSecs = rateLimitSecs != 0 ? intOf(rateLimitSecs) : DEFAULT_RATE_LIMIT_SECS;
  if (isDue(levelNumber, ptr, len, limitSecs)) jsLog(levelNumber, ptr, len);
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

/** Whether the message may be written now, recording the write when it may. */
function isDue(level: Level, ptr: usize, len: usize, limitSecs: i64): bool {
  if (limitSecs <= 0) return true;
  let hash: u32 = 0x811c9dc5 ^ <u32>level; // FNV-1a
  for (let i: usize = 0; i < len; i++) hash = (hash ^ <u32>load<u8>(ptr + i)) * 0x01000193;
  const slot = RECENT + ((<usize>(hash & <u32>(RECENT_SLOTS - 1))) << 4);
  const now = jsNow();
  const last = load<i64>(slot, 8);
  if (load<u32>(slot) == hash && last != 0 && (now - last) / 1_000_000_000 < limitSecs) return false;
  store<u32>(slot, hash);
  store<i64>(slot, now, 8);
  return true;
}

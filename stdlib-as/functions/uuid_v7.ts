import { Value, timestampSeconds } from '../value';
import { hasI64Nanos, i64NanosOf, failNanosOutOfRange } from '../time-unit';
import { jsNow } from '../clock';
import { expectKinds } from './support/args';
import { randomBlock } from './support/random';
import { uuidText } from './support/uuid';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `uuid_v7(timestamp = now())`: 48 bits of Unix milliseconds, version 7, random bits. The milliseconds are
 * VRL's: whole seconds × 1000 plus the timestamp's *total* nanoseconds truncated to 32 bits, over 10^6
 * (it passes `timestamp_nanos as u32` where the uuid crate expects the sub-second part).
 */
export function fn_uuid_v7(timestamp: Value): Value {
  if (timestamp != 0 && !expectKinds(timestamp, KindBit.Timestamp)) return 0;
  if (timestamp != 0 && !hasI64Nanos(timestamp)) return failNanosOutOfRange();
  const ns = timestamp == 0 ? jsNow() : i64NanosOf(timestamp);
  const seconds =
    timestamp == 0 ? (ns >= 0 ? ns / 1_000_000_000 : (ns + 1) / 1_000_000_000 - 1) : timestampSeconds(timestamp);
  const millis = <u64>seconds * 1000 + <u64>(<u32>ns) / 1_000_000;
  const bytes = randomBlock(16);
  for (let i: usize = 0; i < 6; i++) store<u8>(bytes + i, <u8>(millis >> (40 - 8 * i)));
  store<u8>(bytes + 6, (load<u8>(bytes + 6) & 0x0f) | 0x70); // version 7
  store<u8>(bytes + 8, (load<u8>(bytes + 8) & 0x3f) | 0x80); // RFC 4122 variant
  return uuidText(bytes);
}

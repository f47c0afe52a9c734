import { Value, bytesPtr, bytesLen } from '../value';
import { Buffer, bufferNew, bufferBytes, bufferToBytes } from '../buffer';
import { regexMatchesBytes } from '../regex';
import { expectKinds } from './support/args';
import { lossy, sequenceLength } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `sieve(value, permitted_characters, replace_single = "", replace_repeated = "")`: keeps the characters the
 * regex matches (tested on each character alone); a run of one removed character becomes `replace_single`,
 * a longer run `replace_repeated`.
 */
export function fn_sieve(value: Value, permitted: Value, single: Value, repeated: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(permitted, KindBit.Regex)) return 0;
  if (single != 0 && !expectKinds(single, KindBit.Bytes)) return 0;
  if (repeated != 0 && !expectKinds(repeated, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  const replaceSingle = single == 0 ? 0 : lossy(single);
  const replaceRepeated = repeated == 0 ? 0 : lossy(repeated);
  const b = bufferNew(len);
  // Verdicts for ASCII characters, tested once each: bit c of `known` once tested, of `kept` when kept.
  let knownLow: u64 = 0,
    knownHigh: u64 = 0,
    keptLow: u64 = 0,
    keptHigh: u64 = 0;
  let removed: usize = 0;
  for (let at: usize = 0; at < len; ) {
    const lead = <u32>load<u8>(ptr + at);
    const width = sequenceLength(lead);
    let keep: bool;
    if (lead < 0x80) {
      const bit: u64 = (<u64>1) << (<u64>(lead & 63));
      const known = lead < 64 ? knownLow : knownHigh;
      if ((known & bit) == 0) {
        keep = regexMatchesBytes(permitted, ptr + at, 1);
        if (lead < 64) {
          knownLow |= bit;
          if (keep) keptLow |= bit;
        } else {
          knownHigh |= bit;
          if (keep) keptHigh |= bit;
        }
      } else {
        keep = ((lead < 64 ? keptLow : keptHigh) & bit) != 0;
      }
    } else {
      keep = regexMatchesBytes(permitted, ptr + at, width);
    }
    if (keep) {
      flushRemoved(b, removed, replaceSingle, replaceRepeated);
      removed = 0;
      bufferBytes(b, ptr + at, width);
    } else {
      removed++;
    }
    at += width;
  }
  flushRemoved(b, removed, replaceSingle, replaceRepeated);
  return bufferToBytes(b);
}

/** Writes the replacement of a run of `removed` characters (nothing for none, or for an absent replacement). */
function flushRemoved(b: Buffer, removed: usize, single: Value, repeated: Value): void {
  const replacement = removed == 1 ? single : removed > 1 ? repeated : 0;
  if (replacement != 0) bufferBytes(b, bytesPtr(replacement), bytesLen(replacement));
}

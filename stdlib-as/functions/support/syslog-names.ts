// Syslog facility and severity keywords by code, as VRL's `to_syslog_*` functions name them.

import { Value, intOf, bytesPtr, bytesLen } from '../../value';
import { fail, textBytes } from '../../error';
import { Buffer, bufferNew, bufferAscii, bufferBytes, bufferData, bufferLength } from '../../buffer';
import { writeInt } from '../../codec/number';
import { equalsAscii } from '../../text';
import { expectKinds } from './args';
import { lossy } from './text';
import { KindBit } from '../../../abi/wire/kinds';

export const FACILITIES: StaticArray<string> = [
  'kern',
  'user',
  'mail',
  'daemon',
  'auth',
  'syslog',
  'lpr',
  'news',
  'uucp',
  'cron',
  'authpriv',
  'ftp',
  'ntp',
  'security',
  'console',
  'solaris-cron',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
];
export const SEVERITIES: StaticArray<string> = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];
/** Older keywords `to_syslog_severity` also reads, with their codes. */
export const SEVERITY_ALIASES: StaticArray<string> = ['panic', 'error', 'warn'];
export const SEVERITY_ALIAS_CODES: StaticArray<i32> = [0, 3, 4];

/** The keyword of an integer code, or VRL's error: `<what> <code> not valid`. */
export function keywordOf(code: Value, names: StaticArray<string>, what: string): Value {
  if (!expectKinds(code, KindBit.Integer)) return 0;
  const n = intOf(code);
  if (n >= 0 && n < <i64>names.length) return textBytes(unchecked(names[<i32>n]));
  const b = bufferNew(48);
  bufferAscii(b, what);
  writeInt(b, n);
  bufferAscii(b, ' not valid');
  return fail(bufferData(b), bufferLength(b));
}

/** The index of a keyword in `names`, or -1; the argument must be a string (checked by the caller). */
export function codeOf(keyword: Value, names: StaticArray<string>): i32 {
  for (let i = 0; i < names.length; i++)
    if (equalsAscii(bytesPtr(keyword), bytesLen(keyword), unchecked(names[i]))) return i;
  return -1;
}

/** Fails with `before` + the keyword (lossy UTF-8) + `after`. */
export function failKeyword(before: string, keyword: Value, after: string): Value {
  const text = lossy(keyword);
  const b: Buffer = bufferNew(bytesLen(text) + 32);
  bufferAscii(b, before);
  bufferBytes(b, bytesPtr(text), bytesLen(text));
  bufferAscii(b, after);
  return fail(bufferData(b), bufferLength(b));
}

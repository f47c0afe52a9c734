import { jsContext } from '../../support/js-context.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { format_timestamp } from '../../../runtime/js-functions/format_timestamp.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';

function format(rfc3339: string, pattern: string, timezone: string | null = null): string {
  const [, whole, digits = ''] = /^([^.]*?)(?:\.(\d+))?Z$/.exec(rfc3339)!;
  const nanos = BigInt(Date.parse(`${whole}Z`)) * 1_000_000n + BigInt(digits.padEnd(9, '0'));
  try {
    return format_timestamp([new Timestamp(nanos), pattern, timezone], jsContext('Asia/Tokyo')) as string;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

test('upstream examples', () => {
  assert.is(format('2020-10-21T16:00:00Z', '%+'), '2020-10-21T16:00:00+00:00');
  assert.is(format('2020-10-21T16:00:00Z', '%v %R'), '21-Oct-2020 16:00');
  assert.is(format('2021-02-10T23:32:00Z', '%d %B %Y %H:%M'), '10 February 2021 23:32');
  assert.is(format('2021-02-10T23:32:00Z', '%d %B %Y %H:%M', 'Europe/Berlin'), '11 February 2021 00:32');
});

test('dates, weeks and names', () => {
  assert.is(
    format('2020-10-21T06:05:09Z', '%a %A %b %B %h %c'),
    'Wed Wednesday Oct October Oct Wed Oct 21 06:05:09 2020',
  );
  assert.is(format('2020-10-21T06:05:09Z', '%C %y %Y %G %g %V %U %W %j %u %w'), '20 20 2020 2020 20 43 42 42 295 3 3');
  assert.is(format('2021-01-03T06:05:09Z', '%G %g %V %U %W %j %u %w'), '2020 20 53 01 00 003 7 0');
  assert.is(
    format('2020-10-21T06:05:09Z', '%D %x %F %v %R %T %X %s %t %n %%'),
    '10/21/20 10/21/20 2020-10-21 21-Oct-2020 06:05 06:05:09 06:05:09 1603260309 \t \n %',
  );
  assert.is(format('1960-10-21T06:05:09.5Z', '%s %f'), '-290195691 500000000');
});

test('hours, padding modifiers and fractions', () => {
  assert.is(format('2020-10-01T06:05:09Z', '%d %e %-d %_d %0e %-e %m %-m %_m'), '01  1 1  1 01 1 10 10 10');
  assert.is(
    format('2020-10-21T06:05:09Z', '%H %k %I %l %-H %_H %P %p %M %S %-S %-I'),
    '06  6 06  6 6  6 am AM 05 09 9 6',
  );
  assert.is(format('2020-10-21T18:05:09Z', '%H %k %I %l %P %p %r'), '18 18 06  6 pm PM 06:05:09 PM');
  assert.is(format('2020-10-21T00:05:09Z', '%I %l %r'), '12 12 12:05:09 AM');
  assert.is(
    format('2020-10-21T16:00:00.123456789Z', '%f %.f %.3f %.6f %.9f %3f %6f %9f'),
    '123456789 .123456789 .123 .123456 .123456789 123 123456 123456789',
  );
  assert.is(format('2020-10-21T16:00:00.1Z', '%+'), '2020-10-21T16:00:00.100+00:00');
  assert.is(format('2020-10-21T06:05:09Z', '%-y %_y %-j %_j %-C %-Y %_Y'), '20 20 295 295 20 2020 2020');
});

test('offsets and zone names', () => {
  assert.is(format('2020-10-21T16:00:00Z', '%z %:z %::z %:::z %Z'), '+0000 +00:00 +00:00:00 +00 UTC');
  assert.is(format('2020-10-21T16:00:00Z', '%z %:z %::z %:::z', 'Europe/Berlin'), '+0200 +02:00 +02:00:00 +02');
  assert.is(format('2020-10-21T16:00:00.123456789Z', '%+', 'Asia/Kolkata'), '2020-10-21T21:30:00.123456789+05:30');
  assert.is(format('2020-01-21T16:00:00Z', '%z', 'Asia/Kathmandu'), '+0545');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'America/New_York'), 'EST');
  assert.is(format('2020-07-21T16:00:00Z', '%Z', 'America/New_York'), 'EDT');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'UTC'), 'UTC');
  assert.is(format('2020-01-21T16:00:00Z', '%Z %z', 'Etc/GMT'), 'GMT +0000');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Europe/London'), 'GMT');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'America/Sao_Paulo'), '-03');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Europe/Berlin'), 'CET');
  assert.is(format('2020-07-21T16:00:00Z', '%Z', 'Europe/Berlin'), 'CEST');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Asia/Taipei'), 'CST');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Asia/Kolkata'), 'IST');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Asia/Kathmandu'), '+0545');
  assert.is(format('2020-01-21T16:00:00Z', '%Z', 'Asia/Dubai'), '+04');
});

test("years over chrono's whole range as chrono 0.4.45 writes them", () => {
  const at = (seconds: bigint, pattern: string, timezone: string | null = null) =>
    format_timestamp([new Timestamp(seconds * 1_000_000_000n), pattern, timezone], jsContext('UTC')) as string;
  const max = 8_210_266_876_799n; // +262142-12-31T23:59:59Z
  const min = -8_334_601_228_800n; // -262143-01-01T00:00:00Z
  const year10000 = 253_402_300_800n;
  const year0 = -62_167_219_200n;
  assert.is(
    at(max, '%Y|%_Y|%-Y|%y|%G|%+|%s'),
    '+262142|+262142|+262142|42|+262143|+262142-12-31T23:59:59+00:00|8210266876799',
  );
  assert.is(at(min, '%Y|%y|%G|%F|%+'), '-262143|57|-262143|-262143-01-01|-262143-01-01T00:00:00+00:00');
  assert.is(at(year10000, '%Y|%c'), '+10000|Sat Jan  1 00:00:00 +10000');
  assert.is(at(year0 - 1n, '%Y|%_Y|%-Y|%0Y|%y'), '-0001|   -1|-1|-0001|99');
  assert.is(at(year0, '%Y|%_Y|%-Y|%C'), '0000|   0|0|00');
  // `%C` is `div_euclid(100) as u8`, its tens digit written as one character: past `9` from the year 10000.
  assert.is(at(year10000, '%C'), ':0');
  assert.is(at(year0 - 1n, '%C'), 'I5');
  assert.is(at(max, '%C'), '61');
  // ICU names zones up to the year 9999; later years have the names of the same date 400 years back.
  assert.is(at(year10000 + 86_400n * 200n, '%Z %z', 'America/New_York'), 'EDT -0400');
  assert.is(at(max, '%Y-%m-%d %H:%M:%S %Z', 'Europe/Paris'), '+262143-01-01 00:59:59 CET');
});

test('invalid formats fail before the time zone is read', () => {
  for (const pattern of ['%Q', '%E', '%', '%-', '%:', '%.', '%.2f', '%#z', '%-a', '%-D']) {
    assert.is(format('2020-10-21T06:05:09Z', pattern), 'error: invalid format', pattern);
  }
  assert.is(format('2020-10-21T06:05:09Z', '%Q', 'Foo'), 'error: invalid format');
  assert.is(format('2020-10-21T06:05:09Z', '%Y', 'Foo'), 'error: unable to parse timezone: Foo');
  assert.is(format('2020-10-21T06:05:09Z', 'abc é %%'), 'abc é %');
  assert.is(format('2020-10-21T06:05:09Z', ''), '');
});

test('argument kinds', () => {
  const call = (args: RemapValue[]) => {
    try {
      return format_timestamp(args, jsContext('UTC'));
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  assert.is(call(['2020', '%Y', null]), 'error: expected timestamp, got string');
  assert.is(call([new Timestamp(0n), 1n, null]), 'error: expected string, got integer');
  assert.is(call([new Timestamp(0n), '%Y', 1.5]), 'error: expected string, got float');
});

test.run();

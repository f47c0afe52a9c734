import { jsContext } from '../../support/js-context.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse_timestamp } from '../../../runtime/js-functions/parse_timestamp.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';

/** RFC 3339 text of the result, or the error message. */
function parse(value: RemapValue, format: string, timezone: string | null = null, contextZone = 'UTC'): string {
  try {
    return String(parse_timestamp([value, format, timezone], jsContext(contextZone)));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

test('upstream examples', () => {
  assert.is(parse('10-Oct-2020 16:00+00:00', '%v %R %:z'), '2020-10-10T16:00:00Z');
  assert.is(parse('16/10/2019 12:00:00', '%d/%m/%Y %H:%M:%S', 'Asia/Taipei'), '2019-10-16T04:00:00Z');
});

test('a timestamp passes through; other kinds fail', () => {
  const ts = new Timestamp(1_500_000_000_000_000_000n);
  assert.is(parse_timestamp([ts, '%Q', 'Nowhere'], jsContext('UTC')), ts);
  assert.is(parse(5n, '%s'), 'error: unable to convert integer value to timestamp');
  assert.is(parse('2020', 1n as unknown as string), 'error: expected string, got integer');
  assert.is(parse('2020', '%Y', 1n as unknown as string), 'error: expected string, got integer');
  assert.is(parse(new Uint8Array([0x32, 0xff]), '%Y'), 'error: Invalid timestamp "2\u{fffd}": trailing input');
});

test('whitespace, leading zeros and signs are optional as in chrono', () => {
  assert.is(parse('  2020-01-01 10:00', '%Y-%m-%d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-01   10:00', '%Y-%m-%d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-0110:00', '%Y-%m-%d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020- 01-01 10:00', '%Y-%m-%d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-1-1 1:2:3', '%Y-%m-%d %H:%M:%S'), '2020-01-01T01:02:03Z');
  assert.is(parse('20200101 100000', '%Y%m%d %H%M%S'), '2020-01-01T10:00:00Z');
  assert.is(parse('+2020-01-01 10:00', '%Y-%m-%d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-01 10:00', '  %Y-%m-%d %H:%M  '), '2020-01-01T10:00:00Z', 'the format is trimmed');
});

test('fractions, offsets, names and composite specifiers', () => {
  assert.is(parse('2020-01-01 10:00:00.123', '%Y-%m-%d %H:%M:%S%.f'), '2020-01-01T10:00:00.123Z');
  assert.is(parse('2020-01-01 10:00:00', '%Y-%m-%d %H:%M:%S%.f'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-01 10:00:00.1234567891', '%Y-%m-%d %H:%M:%S%.f'), '2020-01-01T10:00:00.123456789Z');
  assert.is(parse('2020-01-01 10:00:00.123', '%Y-%m-%d %H:%M:%S.%f'), '2020-01-01T10:00:00.000000123Z');
  assert.is(parse('2020-01-01 10:00:00.123', '%Y-%m-%d %H:%M:%S.%3f'), '2020-01-01T10:00:00.123Z');
  assert.is(parse('2020-01-01 10:00:00 +0100', '%Y-%m-%d %H:%M:%S %:z'), '2020-01-01T09:00:00Z');
  assert.is(parse('2020-01-01 10:00:00 +01', '%Y-%m-%d %H:%M:%S %#z'), '2020-01-01T09:00:00Z');
  assert.is(parse('2020-01-01 10:00:00 CET +01:00', '%Y-%m-%d %H:%M:%S %Z %z'), '2020-01-01T09:00:00Z');
  assert.is(parse('2020-01-01 10:00:00Z', '%+'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-01T10:00:00.5+01:00', '%+'), '2020-01-01T09:00:00.500Z');
  assert.is(parse('1600000000.5', '%s%.f'), '2020-09-13T12:26:40.500Z');
  assert.is(parse('wed, 01 JAN 2020 10:00:00 +0000', '%a, %d %b %Y %H:%M:%S %z'), '2020-01-01T10:00:00Z');
  assert.is(parse('Wednesday, 01 January 2020 10:00:00 +0000', '%A, %d %B %Y %H:%M:%S %z'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-01-01 10:00 PM', '%Y-%m-%d %I:%M %p'), '2020-01-01T22:00:00Z');
  assert.is(parse('2020-01-01 12:00 am', '%Y-%m-%d %I:%M %p'), '2020-01-01T00:00:00Z');
  assert.is(parse('70-01-01 10:00', '%y-%m-%d %H:%M'), '1970-01-01T10:00:00Z');
  assert.is(parse('20 20 01 01 10:00', '%C %y %m %d %H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('2020-032 10:00', '%Y-%j %H:%M'), '2020-02-01T10:00:00Z');
  assert.is(parse('2020 05 3 10:00', '%Y %U %w %H:%M'), '2020-02-05T10:00:00Z');
  assert.is(parse('2020 53 7 10:00', '%G %V %u %H:%M'), '2021-01-03T10:00:00Z');
  assert.is(parse('01/02/20 10:00', '%D %R'), '2020-01-02T10:00:00Z');
  assert.is(parse('2020-01-01\t10:00', '%Y-%m-%d%t%H:%M'), '2020-01-01T10:00:00Z');
  assert.is(parse('1600000000 2020-09-13 12:26:40', '%s %Y-%m-%d %H:%M:%S'), '2020-09-13T12:26:40Z');
});

test("years over chrono's whole range, beyond i64 nanoseconds", () => {
  assert.is(parse('2263-01-01 10:00', '%Y-%m-%d %H:%M'), '2263-01-01T10:00:00Z');
  assert.is(parse('0001-01-01 00:00', '%Y-%m-%d %H:%M'), '0001-01-01T00:00:00Z');
  assert.is(parse('0-01-01 00:00 +0100', '%Y-%m-%d %H:%M %z'), '-0001-12-31T23:00:00Z');
  assert.is(parse('+262142-12-31 23:59:59.999999999', '%Y-%m-%d %H:%M:%S%.f'), '+262142-12-31T23:59:59.999999999Z');
  assert.is(parse('-262143-01-01 00:00', '%Y-%m-%d %H:%M'), '-262143-01-01T00:00:00Z');
  assert.is(parse('-262143-01-01 01:00', '%Y-%m-%d %H:%M', 'Europe/Paris'), '-262143-01-01T00:50:39Z');
});

test("chrono's error kinds, after the input as Rust quotes it", () => {
  const cases: [string, string, string][] = [
    ['foo', '%Y', 'input contains invalid characters'],
    ['2020-01-01', '%Y-%m-%d', 'input is not enough for unique date and time'],
    ['2020-01-01 10:00x', '%Y-%m-%d %H:%M', 'trailing input'],
    ['2020-01-01 10:0', '%Y-%m-%d %H:%M:%S', 'premature end of input'],
    ['2020-01-01 10:00', '%Y-%m-%d %H:%M %Q', 'bad or unsupported format string'],
    ['Tue, 01 Jan 2020 10:00:00 +0000', '%a, %d %b %Y %H:%M:%S %z', 'no possible date and time matching input'],
    ['2020-02-30 10:00', '%Y-%m-%d %H:%M', 'input is out of range'],
    ['2020-01-01 13:00 PM', '%Y-%m-%d %I:%M %p', 'input is out of range'],
    ['2020-01-01 10:00', '%Y-%m-%d %I:%M', 'input is not enough for unique date and time'],
    ['2020-01-01 10:00:00 CET', '%Y-%m-%d %H:%M:%S %Z', 'input is not enough for unique date and time'],
    ['2020-01-01 10:00 +0160', '%Y-%m-%d %H:%M %z', 'input is out of range'],
    ['1600000000 2020-09-13 12:26:41', '%s %Y-%m-%d %H:%M:%S', 'no possible date and time matching input'],
    ['12345-01-01 10:00', '%Y-%m-%d %H:%M', 'input contains invalid characters'],
    ['+262143-01-01 10:00', '%Y-%m-%d %H:%M', 'input is out of range'],
    ['-262144-12-31 10:00', '%Y-%m-%d %H:%M', 'input is out of range'],
    // Past 15 digits a number is read as an i64: past its range the input is out of range.
    ['9223372036854775808', '%s', 'input is out of range'],
    ['100000000000000', '%s', 'input is out of range'],
  ];
  for (const [text, format, kind] of cases) {
    assert.is(parse(text, format), `error: Invalid timestamp ${JSON.stringify(text)}: ${kind}`, `${text} / ${format}`);
  }
  assert.is(parse('a"b\\\n', '%Y'), 'error: Invalid timestamp "a\\"b\\\\\\n": input contains invalid characters');
});

test('local times are read in the timezone argument, else the compile option', () => {
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', 'America/New_York'), '2020-01-01T15:00:00Z');
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', null, 'Europe/Paris'), '2020-01-01T09:00:00Z');
  assert.is(parse('2020-01-01 10:00 +0100', '%Y-%m-%d %H:%M %z', 'America/New_York'), '2020-01-01T09:00:00Z');
  assert.is(parse('1600000000', '%s', 'America/New_York'), '2020-09-13T12:26:40Z');
  assert.is(parse('0000000000000001600000000', '%s'), '2020-09-13T12:26:40Z');
  assert.is(parse('1600000000 08', '%s %H', 'America/New_York'), '2020-09-13T12:26:40Z');
  const gap = parse('2020-03-08 02:30', '%Y-%m-%d %H:%M', 'America/New_York');
  assert.is(gap, 'error: Invalid timestamp "2020-03-08 02:30": no possible date and time matching input');
  const overlap = parse('2020-11-01 01:30', '%Y-%m-%d %H:%M', 'America/New_York');
  assert.is(overlap, 'error: Invalid timestamp "2020-11-01 01:30": input is not enough for unique date and time');
});

test('time zone names as chrono-tz reads them', () => {
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', 'EST'), '2020-01-01T15:00:00Z');
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', 'utc'), 'error: unable to parse timezone: utc');
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', '+01:00'), 'error: unable to parse timezone: +01:00');
  assert.is(parse('2020-01-01 10:00', '%Y-%m-%d %H:%M', 'Foo/Bar'), 'error: unable to parse timezone: Foo/Bar');
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import type { RemapValue } from '../../../abi/values.js';

const utc = new Stdlib();

/** The result with timestamps as RFC 3339 text, or `error: …`. */
function parse(message: unknown, stdlib = utc): unknown {
  const result = stdlib.call('fn_parse_syslog', message);
  if ('error' in result) return `error: ${result.error}`;
  return JSON.parse(JSON.stringify(result.value, (_key, v: RemapValue) => (typeof v === 'bigint' ? Number(v) : v)));
}

const FAILED = 'error: unable to parse input as valid syslog message';
const thisYear = new Date().getUTCFullYear();

test('upstream example (RFC 5424)', () => {
  const message =
    '<13>1 2020-03-13T20:45:38.119Z dynamicwireless.name non 2426 ID931 [exampleSDID@32473 iut="3" eventSource= "Application" eventID="1011"] Try to override the THX port, maybe it will reboot the neural interface!';
  assert.equal(parse(message), {
    appname: 'non',
    'exampleSDID@32473': { eventID: '1011', eventSource: 'Application', iut: '3' },
    facility: 'user',
    hostname: 'dynamicwireless.name',
    message: 'Try to override the THX port, maybe it will reboot the neural interface!',
    msgid: 'ID931',
    procid: 2426,
    severity: 'notice',
    timestamp: '2020-03-13T20:45:38.119Z',
    version: 1,
  });
});

test('RFC 5424: nil fields, versions, process ids, priorities', () => {
  assert.equal(parse('<13>1 2020-03-13T20:45:38Z - - - - - msg'), {
    facility: 'user',
    message: 'msg',
    severity: 'notice',
    timestamp: '2020-03-13T20:45:38Z',
    version: 1,
  });
  assert.equal(parse('1 2020-03-13T20:45:38-02:30 h a -5 m -'), {
    appname: 'a',
    hostname: 'h',
    message: '',
    msgid: 'm',
    procid: -5,
    timestamp: '2020-03-13T23:15:38Z',
    version: 1,
  });
  const procid = (text: string) =>
    (parse(`<13>1 2020-03-13T20:45:38Z h a ${text} m - msg`) as { procid: unknown }).procid;
  assert.is(procid('+5'), 5);
  assert.is(procid('007'), 7);
  assert.is(procid('2147483647'), 2147483647);
  assert.is(procid('-2147483648'), -2147483648);
  assert.is(procid('2147483648'), '2147483648');
  assert.is(procid('12a'), '12a');
  const header = (pri: string) => {
    const { facility, severity, version } = parse(`<${pri}>12 2020-03-13T20:45:38Z h a p m - msg`) as Record<
      string,
      unknown
    >;
    return [facility, severity, version];
  };
  assert.equal(header('0'), ['kern', 'emerg', 12]);
  assert.equal(header('191'), ['local7', 'debug', 12]);
  assert.equal(header('013'), ['user', 'notice', 12]);
  assert.equal(header('255'), [undefined, 'debug', 12], 'facilities past local7 have no name');
  assert.is(parse('<256>1 2020-03-13T20:45:38Z h a p m - msg'), FAILED);
  assert.is(parse('<13> 1 2020-03-13T20:45:38Z h a p m - msg'), FAILED);
  assert.is(parse('<13>4294967296 2020-03-13T20:45:38Z h a p m - msg'), FAILED);
});

test('RFC 5424 timestamps as chrono reads RFC 3339', () => {
  const stamp = (text: string) => {
    const result = parse(`<13>1 ${text} h a p m - msg`);
    return typeof result === 'string' ? result : (result as { timestamp: string }).timestamp;
  };
  assert.is(stamp('2020-03-13t20:45:38z'), '2020-03-13T20:45:38Z');
  assert.is(stamp('2020-03-13T20:45:38.1234567891Z'), '2020-03-13T20:45:38.123456789Z');
  assert.is(stamp('2020-03-13T20:45:38+23:59'), '2020-03-12T20:46:38Z');
  for (const bad of [
    '2020-03-13T20:45:38',
    '2020-03-13T20:45:38+0200',
    '2020-03-13T20:45:38,5Z',
    '2020-03-13T20:45:38.Z',
    '2020-02-30T20:45:38Z',
    '2020-03-13T24:00:00Z',
    '2020-03-13T20:45:61Z',
    '2020-03-13T20:45:38+24:00',
    '2020-3-13T20:45:38Z',
    '2020-03-13T20:45:38Zx',
    '-',
  ]) {
    assert.is(stamp(bad), FAILED, bad);
  }
});

test('structured data: escapes, repeats, skipped elements, adjacency', () => {
  const data = (sd: string) => {
    const result = parse(`<13>1 2020-03-13T20:45:38Z h a p m ${sd}`) as Record<string, unknown>;
    if (typeof result === 'string') return result;
    const { appname, facility, hostname, msgid, procid, severity, timestamp, version, ...rest } = result;
    return rest;
  };
  assert.equal(data('[x a="1" a="2"][y][x b="\\"q\\" \\\\ \\] \\n \\t"] m'), {
    message: 'm',
    x: { b: '"q" \\ ] \n \\t' },
    y: {},
  });
  assert.equal(data('[a@1 x = "1" [y=  "a]b"]msg'), { message: 'msg', 'a@1': { 'x ': '1', '[y': 'a]b' } });
  assert.equal(data('[message a="1"] text'), { message: { a: '1' } }, 'elements win over header fields');
  assert.equal(data('[x a="1"] [y b="2"] m'), { message: '[y b="2"] m', x: { a: '1' } });
  assert.equal(
    data('[x a=1][ok b="2"][x c="3" ] m'),
    { message: 'm', ok: { b: '2' } },
    'malformed elements are skipped',
  );
  assert.equal(data('[x a="1"][x'), { message: '[x', x: { a: '1' } });
  assert.equal(data('-msg'), { message: 'msg' });
  assert.equal(data('-   msg  '), { message: 'msg' });
  assert.is(data('[x a="1" msg'), FAILED);
  assert.is(data('msg'), FAILED);
});

test('RFC 3164: hostname and tag as syslog_loose tells them apart', () => {
  const fields = (rest: string) => {
    const result = parse(`<13>Feb 13 20:07:26 ${rest}`) as Record<string, unknown>;
    const { facility, severity, timestamp, ...others } = result;
    return others;
  };
  assert.equal(fields('myhost app[123]: hello'), { appname: 'app', hostname: 'myhost', message: 'hello', procid: 123 });
  assert.equal(fields('myhost app: hello: world'), { appname: 'app', hostname: 'myhost', message: 'hello: world' });
  assert.equal(fields('myhost app hello world'), { appname: 'app', hostname: 'myhost', message: 'hello world' });
  assert.equal(fields('app[1]: hi'), { appname: 'app', message: 'hi', procid: 1 });
  assert.equal(fields('app[1] hi'), { appname: 'hi', hostname: 'app[1]', message: '' });
  assert.equal(fields('app: hello'), { hostname: 'app', message: 'hello' });
  assert.equal(fields('myhost:: hi'), { hostname: 'myhost:', message: 'hi' });
  assert.equal(fields('myhost [app]: hi'), { appname: '', hostname: 'myhost', message: 'hi', procid: 'app' });
  assert.equal(fields('myhost app[1 2]: hello'), { appname: 'app[1', hostname: 'myhost', message: '2]: hello' });
  assert.equal(fields('myhost app[1]x: hello'), { appname: 'app[1]x', hostname: 'myhost', message: 'hello' });
  assert.equal(fields('myhost ap[p[1]: hello'), { appname: 'ap', hostname: 'myhost', message: 'hello', procid: 'p[1' });
  assert.equal(fields('myhost\tapp[1]: hello'), { hostname: 'myhost', message: 'app[1]: hello' });
  assert.equal(fields(' myhost app: hello'), { message: 'myhost app: hello' });
  assert.equal(fields('- app: hello'), { appname: 'app', message: 'hello' });
  assert.equal(fields('myhost - hello'), { message: 'hello' }, 'a nil tag drops the hostname too');
  assert.equal(fields('host -[-]: hi'), { appname: '-', hostname: 'host', message: 'hi', procid: '-' });
  assert.equal(fields('-: hello'), { hostname: '-', message: 'hello' });
  assert.equal(fields('myhost app: - -'), { appname: 'app', hostname: 'myhost', message: '-' });
  assert.equal(fields('myhost app[1]: [a x="1"] hello'), {
    a: { x: '1' },
    appname: 'app',
    hostname: 'myhost',
    message: 'hello',
    procid: 1,
  });
  assert.equal(fields('myhost: [a x="1"] hello'), { a: { x: '1' }, hostname: 'myhost', message: 'hello' });
});

test('RFC 3164 timestamps: BSD with or without a year, RFC 3339', () => {
  const stamp = (text: string) => {
    const result = parse(`<13>${text} host app: hi`);
    return typeof result === 'string' ? result : (result as { timestamp: string }).timestamp;
  };
  assert.is(stamp('Feb 13 2020 20:07:26'), '2020-02-13T20:07:26Z');
  assert.is(stamp('feb  3  2020 2:7:026'), '2020-02-03T02:07:26Z');
  assert.is(stamp('Feb 13 20:07:26'), `${thisYear}-02-13T20:07:26Z`);
  const december = new Date().getUTCMonth() === 0 ? thisYear - 1 : thisYear;
  assert.is(stamp('Dec 25 20:07:26'), `${december}-12-25T20:07:26Z`);
  assert.is(stamp('Feb 29 2020 20:07:26'), '2020-02-29T20:07:26Z');
  assert.is(stamp('2020-03-13T20:45:38.123+01:00'), '2020-03-13T19:45:38.123Z');
  // chrono's dates go on to the year 262142.
  assert.is(stamp('Feb 13 12345 20:07:26'), '+12345-02-13T20:07:26Z');
  assert.is(stamp('Feb 13 1000 20:07:26'), '1000-02-13T20:07:26Z');
  for (const bad of [
    'Feb 29 2019 20:07:26',
    'Feb 13 25:07:26',
    'Feb 13 20:07:60',
    'Feb 13 20:07',
    'Sept 13 20:07:26',
    'Feb13 20:07:26',
    'Feb 0 20:07:26',
    '2020-03-13T20:45:38',
    'Feb 13 262143 20:07:26',
  ]) {
    assert.is(stamp(bad), FAILED, bad);
  }
  assert.equal(parse('<13>Feb 13 2020 20:07:26.123 myhost app: hi'), {
    facility: 'user',
    message: '.123 myhost app: hi',
    severity: 'notice',
    timestamp: '2020-02-13T20:07:26Z',
  });
});

test('RFC 3164 local times are in the compile option time zone', () => {
  const newYork = new Stdlib([], 'America/New_York');
  const stamp = (text: string) => (parse(`<13>${text} host app: hi`, newYork) as { timestamp: string }).timestamp;
  assert.is(stamp('Feb 13 2020 20:07:26'), '2020-02-14T01:07:26Z');
  assert.is(stamp('Jul 13 2020 20:07:26'), '2020-07-14T00:07:26Z');
  assert.is(stamp('Nov  1 2020 01:30:00'), '2020-11-01T05:30:00Z', 'an ambiguous time is the earlier');
  assert.is(stamp('Mar  8 2020 02:30:00'), '2020-03-08T06:30:00Z', 'a skipped time moves past the gap');
  assert.is(stamp('2020-07-13T20:07:26Z'), '2020-07-13T20:07:26Z');
});

test('input: trimmed, lossy UTF-8, Unicode whitespace, strings only', () => {
  assert.equal(parse(' \n<13>Feb 13 2020 20:07:26 host app: hi \r\n'), {
    appname: 'app',
    facility: 'user',
    hostname: 'host',
    message: 'hi',
    severity: 'notice',
    timestamp: '2020-02-13T20:07:26Z',
  });
  const invalid = new Uint8Array([...Buffer.from('<13>Feb 13 2020 20:07:26 h'), 0xff, ...Buffer.from(' a: m'), 0xc3]);
  assert.equal(parse(invalid), {
    appname: 'a',
    facility: 'user',
    hostname: 'h\ufffd',
    message: 'm\ufffd',
    severity: 'notice',
    timestamp: '2020-02-13T20:07:26Z',
  });
  assert.equal(
    parse('\u00a0<13>Feb 13 2020 20:07:26 h\u3000a: m\u2003'),
    {
      facility: 'user',
      hostname: 'h',
      message: '\u3000a: m',
      severity: 'notice',
      timestamp: '2020-02-13T20:07:26Z',
    },
    'Unicode whitespace ends words and is trimmed, but only spaces and tabs separate fields',
  );
  assert.is(parse('<13>1 2020-03-13T20:45:38Z h\u00a0x a p m - msg'), FAILED);
  assert.is(parse(''), FAILED);
  assert.is(parse('hello world'), FAILED);
  assert.is(parse('<13>hello world'), FAILED);
  assert.is(parse(5n), 'error: expected string, got integer');
});

test.run();

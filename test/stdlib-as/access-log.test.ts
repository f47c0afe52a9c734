// The stdlib's access log parser (`access_log_parse`) against the JS functions it stands in for: where it
// answers, the same object; where it gives 0, the JS function answers (an error, a float, a time it leaves
// to JS). Then compiled programs: a literal format takes the stdlib's path, a format in a variable the JS
// function's, with the same results for every line.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';
import { jsContext } from '../support/js-context.js';
import { APACHE_LOG_FORMATS, NGINX_LOG_FORMATS, type LogFormat } from '../../abi/access-log.js';
import { LogFieldType } from '../../abi/wire/access-log.js';
import { regexProgram } from '../../abi/regex-program.js';
import { ProgramKind, strftimeProgram } from '../../abi/strftime-program.js';
import { Regex, type RemapValue } from '../../abi/values.js';
import { parse_websrv1_log } from '../../runtime/js-functions/parse_websrv1_log.js';
import { parse_websrv2_log } from '../../runtime/js-functions/parse_websrv2_log.js';
import { compile } from '../../runtime/index.js';

const stdlib = new Stdlib();
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
/** Values compared as JSON (keys sorted as remap objects are; the JS function's have no prototype), integers
 * and floats apart. */
const canonical = (value: unknown) => JSON.stringify(value, replacer);
const TYPE_CODES = { integer: LogFieldType.Integer, float: LogFieldType.Float, timestamp: LogFieldType.Timestamp };

/** The stdlib's answer for `line` in `format` (null for 0: the JS function's turn). */
function inStdlib(format: LogFormat, line: string | Uint8Array, timestampFormat = format.timestampFormat): RemapValue {
  const types = Object.fromEntries(
    Object.entries(format.types).map(([name, type]) => [name, BigInt(TYPE_CODES[type])]),
  );
  const result = stdlib.call(
    'access_log_parse',
    line,
    new Regex(format.pattern, regexProgram(format.pattern)),
    types,
    strftimeProgram(ProgramKind.Parse, timestampFormat)!,
  );
  stdlib.exports.reset!();
  return 'value' in result ? result.value : null;
}

function inJs(fn: 'apache' | 'nginx', format: string, line: string | Uint8Array): RemapValue {
  try {
    return (fn === 'apache' ? parse_websrv1_log : parse_websrv2_log)([line, format, null], jsContext('UTC'));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const APACHE = {
  common: [
    '127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
    '- - - [-] "-" - -',
    '  10.0.0.1   -  -  [01/Mar/2024:10:01:00 +0000]  "GET /a b  HTTP/1.1"  404  0  ',
    'é.example ü - [29/Feb/2024:23:59:59 +1400] "POST /ß?q=日本 HTTP/2" 500 12',
    'h i u [10/Oct/2000:13:55:36 -0700] "garbage" 200 2326',
  ],
  combined: [
    '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326 "http://x/" "Mozilla/5.0 (X11)"',
    '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326 "-" "-"',
  ],
  error: [
    '[Wed Oct 11 14:32:52.123 2000] [core:error] [pid 35708:tid 4328636416] [client 1.2.3.4:5] File does not exist',
  ],
};
const NGINX = {
  combined: [
    '172.17.0.1 - alice [31/Mar/2021:12:04:07 +0000] "GET /x HTTP/1.1" 200 612 "-" "curl/7.64.1" "gzip"',
    '172.17.0.1 - - [31/Mar/2021:12:04:07 +0000] "GET / HTTP/1.1" 200 612 "http://r/" "curl/7.64.1"',
  ],
  main: ['172.17.0.1 - - [31/Mar/2021:12:04:07 +0000] "GET / HTTP/1.1" 200 612 "-" "curl/7.64.1" "-"'],
  ingress_upstreaminfo: [
    '0.0.0.0 - bob [18/Mar/2023:15:00:00 +0000] "GET /some/path HTTP/2.0" 200 12312 "https://10.0.0.1/some/referer" "SomeUserAgent" 690 0.041 [some-upstream-service-9000] [] 10.0.50.80:9000 19437 0.049 200 752178adb17130b291aefd8c386279e7',
  ],
  error: [
    '2021/04/01 13:02:31 [error] 31#31: *1 open() "/usr/share/nginx/html/not-found" failed (2: No such file or directory), client: 172.17.0.1, server: localhost, request: "POST /not-found HTTP/1.1", host: "localhost:8081"',
    '2021/04/01 13:02:31 [warn] 31#31: *1 limiting requests, excess: 0.500 by zone "one", client: 1.2.3.4, server: s',
  ],
};

test('where the stdlib answers it gives the JS function object; floats, errors and what it cannot read go to JS', () => {
  let answered = 0;
  let passed = 0;
  for (const [fn, table, lines] of [
    ['apache', APACHE_LOG_FORMATS, APACHE],
    ['nginx', NGINX_LOG_FORMATS, NGINX],
  ] as const) {
    for (const [name, list] of Object.entries(lines)) {
      for (const line of [...list, 'not a log line', '']) {
        const mine = inStdlib(table[name]!, line);
        const theirs = inJs(fn, name, line);
        if (mine === null) {
          passed++;
          continue;
        }
        answered++;
        assert.is(canonical(mine), canonical(theirs), `${fn} ${name}: ${line}`);
      }
    }
  }
  assert.ok(answered >= 11, `${answered} answered`);
  // The apache error time (`%a`… is not the default) and no match.
  assert.ok(passed >= 10, `${passed} passed on`);
  assert.equal(inStdlib(APACHE_LOG_FORMATS.common!, APACHE.common[0]!.replace('2326', '99999999999999999999')), null);
  // A float past f64's range is the JS function's to word.
  const ingress = NGINX_LOG_FORMATS.ingress_upstreaminfo!;
  assert.equal(inStdlib(ingress, NGINX.ingress_upstreaminfo[0]!.replace(' 0.041 ', ` ${'9'.repeat(400)}.5 `)), null);
  assert.equal(
    canonical(inStdlib(ingress, NGINX.ingress_upstreaminfo[0]!)),
    canonical(inJs('nginx', 'ingress_upstreaminfo', NGINX.ingress_upstreaminfo[0]!)),
  );
});

test('compiled: a literal format (the stdlib) and one in a variable (the JS function) agree on every line', async () => {
  const cases = [
    ['parse_common_log(.m)', 'parse_common_log(.m, f)', '"%d/%b/%Y:%T %z"', APACHE.common],
    ['parse_common_log(.m, "%d/%b/%Y:%T %z")', 'parse_common_log(.m, f)', '"%d/%b/%Y:%T %z"', APACHE.common],
    ['parse_apache_log(.m, "common")', 'parse_apache_log(.m, f)', '"common"', APACHE.common],
    ['parse_apache_log(.m, "combined")', 'parse_apache_log(.m, f)', '"combined"', APACHE.combined],
    ['parse_apache_log(.m, "error")', 'parse_apache_log(.m, f)', '"error"', APACHE.error],
    ['parse_nginx_log(.m, "combined")', 'parse_nginx_log(.m, f)', '"combined"', NGINX.combined],
    ['parse_nginx_log(.m, "main")', 'parse_nginx_log(.m, f)', '"main"', NGINX.main],
    ['parse_nginx_log(.m, "error")', 'parse_nginx_log(.m, f)', '"error"', NGINX.error],
    [
      'parse_nginx_log(.m, "ingress_upstreaminfo")',
      'parse_nginx_log(.m, f)',
      '"ingress_upstreaminfo"',
      NGINX.ingress_upstreaminfo,
    ],
  ] as const;
  for (const [literal, variable, value, lines] of cases) {
    const fast = await compile(`.r, .e = ${literal}\ndel(.m)`);
    const slow = await compile(`f = ${value}\n.r, .e = ${variable}\ndel(.m)`);
    for (const line of [...lines, ...APACHE.common, ...NGINX.error, 'x', '- - - [bad] "-" 1 2']) {
      // The messages name the call's position in its program.
      const fastRun = JSON.stringify(fast.run({ m: line }), replacer).replace(/ at \(\d+:\d+\)/, '');
      assert.is(
        fastRun,
        JSON.stringify(slow.run({ m: line }), replacer).replace(/ at \(\d+:\d+\)/, ''),
        `${literal}: ${line}`,
      );
    }
  }
});

test.run();

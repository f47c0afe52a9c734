// format_timestamp with a constant format in UTC and parse_timestamp of text with an offset run in the
// stdlib (compiler/codegen/strftime.ts, stdlib-as/strftime.ts): the same results as the JS implementation
// (runtime/strftime.ts) for every specifier, padding flag and fraction form, over instants across the
// whole i64 nanosecond range, and for parsing the same instants or the same errors on good and bad text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compile, compileToModule, defaultServices, instantiate, loadJsFunctions, Program, Timestamp, type JsFunction,
} from '../../../runtime/index.js';
import { parse_timestamp } from '../../../runtime/js-functions/parse_timestamp.js';
import { strftimeFormatter } from '../../../runtime/strftime.js';
import { UTC, type TimeZone } from '../../../runtime/time-zones.js';

const NUMERIC = 'CdeGgHIjklmMSsuUVwWyY'.split('');
const FORMATS = [
  ...'aAbBcCdDeFgGhHIjklmMnprRsStTuUvVwWxXyYzZ+%'.split('').map((c) => `%${c}`),
  ...NUMERIC.flatMap((c) => [`%-${c}`, `%_${c}`, `%0${c}`]),
  '%f', '%.f', '%.3f', '%.6f', '%.9f', '%3f', '%6f', '%9f', '%-f', '%_f', '%:z', '%::z', '%:::z',
  '%Y-%m-%dT%H:%M:%S%.3fZ', 'at %T on %A, %B %e (day %j) in week %V of %G',
  'journée %d — 日 %m', '  spaced\t%H  \n %M ', 'x'.repeat(300) + '%S' + 'y'.repeat(256), '', 'plain',
];

const NANOS_MIN = -(2n ** 63n);
const NANOS_MAX = 2n ** 63n - 1n;
const DAY = 86_400_000_000_000n;

/** Instants at calendar edges (year ends decide ISO weeks, leap days, the epoch) and seeded random ones. */
function instants(): bigint[] {
  const out = [0n, -1n, 1n, NANOS_MIN, NANOS_MAX, 999_999_999n, -1_000_000_000n];
  for (const year of [1678, 1900, 1969, 1970, 1999, 2000, 2004, 2020, 2021, 2100, 2261]) {
    const newYear = BigInt(Date.UTC(year, 0, 1)) * 1_000_000n;
    for (let d = -4n; d <= 4n; d++) out.push(newYear + d * DAY, newYear + d * DAY - 1n);
    out.push(BigInt(Date.UTC(year, 1, 28, 23, 59, 59)) * 1_000_000n + 123_000_000n);
  }
  let seed = 0x2f6b_1e3dn;
  for (let i = 0; i < 200; i++) {
    seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) & (2n ** 64n - 1n);
    const nanos = BigInt.asIntN(64, seed);
    // Whole seconds, milliseconds and microseconds as well: the shortest fraction depends on them.
    out.push(nanos, nanos - (nanos % 1_000_000_000n), nanos - (nanos % 1_000_000n), nanos - (nanos % 1_000n));
  }
  return out.filter((n) => n >= NANOS_MIN && n <= NANOS_MAX);
}

const literal = (format: string) => JSON.stringify(format);
const text = (value: unknown) => (typeof value === 'string' ? value : Buffer.from(value as Uint8Array).toString('utf8'));

test('every specifier: the stdlib formats as the JS implementation does', async () => {
  const source = `t = timestamp!(.t)\n[${FORMATS.map((f) => `format_timestamp!(t, ${literal(f)})`).join(', ')}]`;
  const { info } = await compileToModule(source, { timezone: 'UTC' });
  assert.not.ok(info.jsFunctions.includes('format_timestamp'), 'no host call');
  const program = await compile(source, { timezone: 'UTC' });
  const formatters = FORMATS.map((f) => strftimeFormatter(f));
  for (const nanos of instants()) {
    const { result } = program.run({ t: new Timestamp(nanos) });
    const texts = (result as unknown[]).map(text);
    assert.is(texts.length, FORMATS.length);
    FORMATS.forEach((format, i) => assert.is(texts[i], formatters[i]!(nanos, UTC), `${literal(format)} at ${nanos} ns`));
  }
});

test('formats the stdlib does not take stay with the JS function, with its errors', async () => {
  const cases: Array<[string, string]> = [
    ['format_timestamp!(t, "%Q")', 'invalid format'],
    ['format_timestamp!(t, "%#z")', 'invalid format'],
    ['format_timestamp!(t, "%-:z")', 'invalid format'],
    ['format_timestamp!(t, "%H", timezone: "Europe/Berlin")', '01'],
    ['format_timestamp!(t, string!(.f))', '00'],
  ];
  for (const [call, expected] of cases) {
    const source = `t = t'1970-01-01T00:00:00Z'\n${call}`;
    const { info } = await compileToModule(source, { timezone: 'UTC' });
    assert.ok(info.jsFunctions.includes('format_timestamp'), call);
    const program = await compile(source, { timezone: 'UTC' });
    let got: string;
    try {
      got = text(program.run({ f: '%H' }).result);
    } catch (error) {
      got = (error as Error).message;
    }
    assert.ok(got === expected || got.endsWith(`: ${expected}`), `${call}: ${got}`);
  }
});

const PARSE_FORMATS = [
  '%d/%b/%Y:%H:%M:%S %z', '%Y-%m-%dT%H:%M:%S%.f%:z', '%Y-%m-%d %H:%M:%S%.3f %:z', '%Y%m%d%H%M%S%z',
  '%d %B %Y %H:%M %z', '%Y-%m-%dT%H:%M:%S.%f%z', '%Y-%m-%d %H:%M:%S,%3f %z', '%Y-%m-%d %H:%M:%S.%6f%z',
  '%Y-%m-%d %H:%M:%S.%9f%z', '%e-%h-%Y %k:%M %z', '%F %T%.9f %z', '%Y/%m/%d %R %z', 'été %Y-%m-%d %H:%M %z',
  '%+', 'at %+ or so',
];

/** A fixed-offset zone, for writing the texts to parse. */
const fixedZone = (offset: number): TimeZone => ({ offsetAt: () => offset, abbreviation: () => '' });

/** Texts for a format: instants written with it at several offsets, and damaged and odd variants of them. */
function parseTexts(format: string): string[] {
  const out: string[] = [];
  const all = instants().filter((_, i) => i % 13 === 0);
  all.forEach((nanos, i) => {
    const offset = [0, 3600, -5 * 3600 - 1800, 14 * 3600, -12 * 3600, 45 * 60][i % 6]!;
    const text = strftimeFormatter(format)(nanos, fixedZone(offset));
    out.push(text, text.toUpperCase(), text.toLowerCase(), ` ${text}`, `${text} `, `${text}x`, text.slice(0, -1),
      text.slice(1), text.replace(/:/g, ': '), text.replace(/ /g, '  '), text.replace(/ /g, '\u00a0'),
      text.replace(/\+/g, '-'), text.replace(/[+-](\d\d)/, '+99'), text.replace(/[+-](\d\d):?(\d\d)/, '+$1:6$2'),
      text.replace(/:(\d\d)([ .,+-]|$)/, ':60$2'), text.replace(/(\d{4})/, '+$1'), text.replace(/\d/, 'x'),
      text.replace(/\.(\d+)/, '.$1123'), text.replace(/(\d\d)/, '1$1'), text.replace(/[+-]\d\d:?\d\d/, 'Z'),
      text.replace(/[+-]\d\d:?\d\d/, 'z'), text.replace(/[+-]\d\d:?\d\d/, 'uTc'), text.replace(/[+-]\d\d:?\d\d/, 'UTX'),
      text.replace('T', 't'), text.replace('T', ''), text.replace('T', ' '), text.replace(/T.*/, 'T'), text.replace(/T.*/, ''));
  });
  out.push('', 'garbage', '31/Feb/2020:00:00:00 +0000', '29/Feb/2021:00:00:00 +0000', '29/Feb/2020:24:00:00 +0000',
    '01/Jan/2020:00:00:00 +2400', '01/Januar/2020:00:00:00 +0000', '01/Dec/2262:00:00:00 +0000', '10/Apr/1677:00:00:00 +0000');
  return out;
}

/** The JS function's answer: nanoseconds, or the error text. */
function jsParse(text: string, format: string): string {
  try {
    return String((parse_timestamp([text, format], { timezone: 'UTC' } as never) as Timestamp).nanos);
  } catch (error) {
    return (error as Error).message;
  }
}

/** The program of `source`, counting the calls of the JS parse_timestamp. */
async function countingProgram(source: string): Promise<{ program: Program; jsCalls: () => number }> {
  const { module, info } = await compileToModule(source, { timezone: 'UTC' });
  const table = await loadJsFunctions(info.jsFunctions);
  let calls = 0;
  const counted: JsFunction = (args, context) => {
    calls++;
    return table.parse_timestamp!(args, context);
  };
  const functions = { ...table, parse_timestamp: counted };
  return { program: new Program(instantiate(module, { functions, services: defaultServices(info) })), jsCalls: () => calls };
}

test('parse_timestamp with an offset: the stdlib reads as the JS function, which answers the rest', async () => {
  for (const format of PARSE_FORMATS) {
    const { program, jsCalls } = await countingProgram(`parse_timestamp!(.text, ${literal(format)})`);
    const texts = parseTexts(format);
    let read = 0;
    for (const text of texts) {
      const expected = jsParse(text, format);
      let got: string;
      try {
        got = String((program.run({ text }).result as Timestamp).nanos);
      } catch (error) {
        got = (error as Error).message.replace(/^function call error for "parse_timestamp" at \(\d+:\d+\): /, '');
      }
      assert.is(got, expected, `${literal(text)} with ${literal(format)}`);
      if (/^-?\d+$/.test(expected)) read++;
    }
    assert.ok(read > 10, `${format}: ${read} texts read`);
    // Every error comes from the JS function; most instants come from the stdlib.
    const readInStdlib = texts.length - jsCalls();
    assert.ok(readInStdlib > read / 2, `${format}: ${readInStdlib} of ${read} texts read in the stdlib`);
  }
});

test('parse_timestamp formats the stdlib does not read stay with the JS function', async () => {
  const cases: Array<[string, string]> = [
    ['"%d/%m/%Y %H:%M"', '01/02/2020 10:00'],
    ['"%y-%m-%d %H:%M %z"', '20-02-01 10:00 +0000'],
    ['"%a %d/%m/%Y %H:%M %z"', 'Sat 01/02/2020 10:00 +0000'],
    ['"%d/%m/%Y %H:%M %z", timezone: "UTC"', '01/02/2020 10:00 +0000'],
    ['string!(.format)', '01/02/2020 10:00 +0000'],
  ];
  for (const [args, text] of cases) {
    const { program, jsCalls } = await countingProgram(`parse_timestamp!(.text, ${args})`);
    const { result } = program.run({ text, format: '%d/%m/%Y %H:%M %z' });
    assert.is((result as Timestamp).nanos, 1_580_551_200_000_000_000n, args);
    assert.is(jsCalls(), 1, args);
  }
});

test.run();

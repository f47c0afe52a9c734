// format_timestamp in UTC and parse_timestamp without `timezone` run in the stdlib (abi/strftime-program.ts,
// stdlib-as/strftime.ts), with literal formats and with formats known only at run time: the same results as
// the JS implementation (abi/strftime.ts) for every specifier, padding flag and fraction form, over
// instants across chrono's whole range (years -262143 to 262142); for parsing, the same instants or the same errors on good
// and bad text, with an offset in the text or as local time in the instance's zone around its transitions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compile,
  compileToModule,
  defaultServices,
  instantiate,
  loadJsFunctions,
  Program,
  Timestamp,
  type JsFunction,
} from '../../runtime/index.js';
import { parse_timestamp } from '../../runtime/js-functions/parse_timestamp.js';
import { strftimeFormatter } from '../../abi/strftime.js';
import { namedTimeZone, UTC, type TimeZone } from '../../runtime/time-zones.js';
import { jsContext } from '../support/js-context.js';

const NUMERIC = 'CdeGgHIjklmMSsuUVwWyY'.split('');
const FORMATS = [
  ...'aAbBcCdDeFgGhHIjklmMnprRsStTuUvVwWxXyYzZ+%'.split('').map((c) => `%${c}`),
  ...NUMERIC.flatMap((c) => [`%-${c}`, `%_${c}`, `%0${c}`]),
  '%f',
  '%.f',
  '%.3f',
  '%.6f',
  '%.9f',
  '%3f',
  '%6f',
  '%9f',
  '%-f',
  '%_f',
  '%:z',
  '%::z',
  '%:::z',
  '%Y-%m-%dT%H:%M:%S%.3fZ',
  'at %T on %A, %B %e (day %j) in week %V of %G',
  'journée %d — 日 %m',
  '  spaced\t%H  \n %M ',
  'x'.repeat(300) + '%S' + 'y'.repeat(256),
  '',
  'plain',
];

/** chrono's range: -262143-01-01T00:00:00Z to +262142-12-31T23:59:59.999999999Z. */
const NANOS_MIN = -8_334_601_228_800_000_000_000n;
const NANOS_MAX = 8_210_266_876_799_999_999_999n;
const DAY = 86_400_000_000_000n;

/** Nanoseconds since the epoch of a UTC date (any year: Date.UTC would read 0–99 as 1900–1999). */
function utcNanos(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): bigint {
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second));
  date.setUTCFullYear(year);
  return BigInt(date.getTime()) * 1_000_000n;
}

/** Instants at calendar edges (year ends decide ISO weeks, leap days, the epoch, signs and widths of years,
 * the ends of i64 nanoseconds and of chrono's range) and seeded random ones. */
function instants(): bigint[] {
  const out = [0n, -1n, 1n, NANOS_MIN, NANOS_MAX, -(2n ** 63n), 2n ** 63n - 1n, 999_999_999n, -1_000_000_000n];
  const years = [-262_143, -100_000, -10_001, -101, -100, -1, 0, 1, 99, 100, 999, 1000, 1677, 1678, 1900, 1969];
  years.push(1970, 1999, 2000, 2004, 2020, 2021, 2100, 2261, 2262, 2263, 9999, 10_000, 12_799, 12_800, 25_600);
  years.push(100_000, 262_142);
  for (const year of years) {
    const newYear = utcNanos(year, 0, 1);
    for (let d = -4n; d <= 4n; d++) out.push(newYear + d * DAY, newYear + d * DAY - 1n);
    out.push(utcNanos(year, 1, 28, 23, 59, 59) + 123_000_000n);
  }
  let seed = 0x2f6b_1e3dn;
  for (let i = 0; i < 200; i++) {
    seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) & (2n ** 64n - 1n);
    // i64 nanoseconds, and as many spread over chrono's range (a 64-bit draw scaled by 2^10).
    const nanos = i % 2 === 0 ? BigInt.asIntN(64, seed) : BigInt.asIntN(64, seed) * 1024n + (seed % 1024n);
    // Whole seconds, milliseconds and microseconds as well: the shortest fraction depends on them.
    out.push(nanos, nanos - (nanos % 1_000_000_000n), nanos - (nanos % 1_000_000n), nanos - (nanos % 1_000n));
  }
  return out.filter((n) => n >= NANOS_MIN && n <= NANOS_MAX);
}

const literal = (format: string) => JSON.stringify(format);
const text = (value: unknown) =>
  typeof value === 'string' ? value : Buffer.from(value as Uint8Array).toString('utf8');

test('every specifier: the stdlib formats as the JS implementation does', async () => {
  const source = `t = timestamp!(.t)\n[${FORMATS.map((f) => `format_timestamp!(t, ${literal(f)})`).join(', ')}]`;
  const { info } = await compileToModule(source, { timezone: 'UTC' });
  assert.not.ok(info.jsFunctions.includes('format_timestamp'), 'no host call');
  const program = await compile(source, { timezone: 'UTC' });
  // The same formats known only at run time: the runtime builds their programs.
  const dynamic = await countingProgram(
    `t = timestamp!(.t)\n[${FORMATS.map((_, i) => `format_timestamp!(t, string!(.f[${i}]))`).join(', ')}]`,
    'format_timestamp',
  );
  const formatters = FORMATS.map((f) => strftimeFormatter(f));
  for (const nanos of instants()) {
    for (const { result } of [
      program.run({ t: new Timestamp(nanos) }),
      dynamic.program.run({ t: new Timestamp(nanos), f: FORMATS }),
    ]) {
      const texts = (result as unknown[]).map(text);
      assert.is(texts.length, FORMATS.length);
      FORMATS.forEach((format, i) =>
        assert.is(texts[i], formatters[i]!(nanos, UTC), `${literal(format)} at ${nanos} ns`),
      );
    }
  }
  assert.is(dynamic.jsCalls(), 0, 'no call of the JS function');
});

test('formats the stdlib does not take stay with the JS function, with its errors', async () => {
  const cases: Array<[string, string]> = [
    ['format_timestamp!(t, "%Q")', 'invalid format'],
    ['format_timestamp!(t, "%#z")', 'invalid format'],
    ['format_timestamp!(t, "%-:z")', 'invalid format'],
    ['format_timestamp!(t, "%H", timezone: "Europe/Berlin")', '01'],
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
  '%d/%b/%Y:%H:%M:%S %z',
  '%Y-%m-%dT%H:%M:%S%.f%:z',
  '%Y-%m-%d %H:%M:%S%.3f %:z',
  '%Y%m%d%H%M%S%z',
  '%d %B %Y %H:%M %z',
  '%Y-%m-%dT%H:%M:%S.%f%z',
  '%Y-%m-%d %H:%M:%S,%3f %z',
  '%Y-%m-%d %H:%M:%S.%6f%z',
  '%Y-%m-%d %H:%M:%S.%9f%z',
  '%e-%h-%Y %k:%M %z',
  '%F %T%.9f %z',
  '%Y/%m/%d %R %z',
  'été %Y-%m-%d %H:%M %z',
  '%+',
  'at %+ or so',
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
    out.push(
      text,
      text.toUpperCase(),
      text.toLowerCase(),
      ` ${text}`,
      `${text} `,
      `${text}x`,
      text.slice(0, -1),
      text.slice(1),
      text.replace(/:/g, ': '),
      text.replace(/ /g, '  '),
      text.replace(/ /g, '\u00a0'),
      text.replace(/\+/g, '-'),
      text.replace(/[+-](\d\d)/, '+99'),
      text.replace(/[+-](\d\d):?(\d\d)/, '+$1:6$2'),
      text.replace(/:(\d\d)([ .,+-]|$)/, ':60$2'),
      text.replace(/(\d{4})/, '+$1'),
      text.replace(/\d/, 'x'),
      text.replace(/\.(\d+)/, '.$1123'),
      text.replace(/(\d\d)/, '1$1'),
      text.replace(/[+-]\d\d:?\d\d/, 'Z'),
      text.replace(/[+-]\d\d:?\d\d/, 'z'),
      text.replace(/[+-]\d\d:?\d\d/, 'uTc'),
      text.replace(/[+-]\d\d:?\d\d/, 'UTX'),
      text.replace('T', 't'),
      text.replace('T', ''),
      text.replace('T', ' '),
      text.replace(/T.*/, 'T'),
      text.replace(/T.*/, ''),
    );
  });
  out.push(
    '',
    'garbage',
    '31/Feb/2020:00:00:00 +0000',
    '29/Feb/2021:00:00:00 +0000',
    '29/Feb/2020:24:00:00 +0000',
    '01/Jan/2020:00:00:00 +2400',
    '01/Januar/2020:00:00:00 +0000',
    '01/Dec/2262:00:00:00 +0000',
    '10/Apr/1677:00:00:00 +0000',
    '31/Dec/9999:23:59:59 -2359',
    '01/Jan/0000:00:00:00 +0100',
    '01/Jan/0001:00:00:00 +0000',
    '01/Jan/+262142:00:00:00 +0000',
    '31/Dec/+262142:23:59:59 -0100',
    '01/Jan/-262143:00:00:00 +0100',
  );
  return out;
}

/** The JS function's answer: nanoseconds, or the error text. */
function jsParse(text: string, format: string, timezone = 'UTC'): string {
  try {
    return String((parse_timestamp([text, format], jsContext(timezone)) as Timestamp).nanos);
  } catch (error) {
    return (error as Error).message;
  }
}

/** The program of `source`, counting the calls of the JS function `name`. */
async function countingProgram(
  source: string,
  name = 'parse_timestamp',
  timezone = 'UTC',
): Promise<{ program: Program; jsCalls: () => number }> {
  const { module, info } = await compileToModule(source, { timezone });
  const table = await loadJsFunctions(info.jsFunctions);
  let calls = 0;
  const counted: JsFunction = (args, context) => {
    calls++;
    return table[name]!(args, context);
  };
  const functions = { ...table, [name]: counted };
  return {
    program: new Program(instantiate(module, { functions, services: defaultServices(info) })),
    jsCalls: () => calls,
  };
}

/** The stdlib's answer: nanoseconds, or the error text without its call prefix. */
function programParse(program: Program, text: string, format: string): string {
  try {
    return String((program.run({ text, format }).result as Timestamp).nanos);
  } catch (error) {
    return (error as Error).message.replace(/^function call error for "parse_timestamp" at \(\d+:\d+\): /, '');
  }
}

test('parse_timestamp with an offset: the stdlib reads as the JS function, which answers the rest', async () => {
  for (const format of PARSE_FORMATS) {
    for (const formatArg of [literal(format), 'string!(.format)']) {
      const { program, jsCalls } = await countingProgram(`parse_timestamp!(.text, ${formatArg})`);
      const texts = parseTexts(format);
      let read = 0;
      for (const text of texts) {
        const expected = jsParse(text, format);
        assert.is(
          programParse(program, text, format),
          expected,
          `${literal(text)} with ${formatArg} = ${literal(format)}`,
        );
        if (/^-?\d+$/.test(expected)) read++;
      }
      assert.ok(read > 10, `${format}: ${read} texts read`);
      // Every error comes from the JS function; most instants come from the stdlib.
      const readInStdlib = texts.length - jsCalls();
      assert.ok(readInStdlib > read / 2, `${format}: ${readInStdlib} of ${read} texts read in the stdlib`);
    }
  }
});

const LOCAL_FORMATS = [
  '%d/%m/%Y %H:%M:%S',
  '%Y-%m-%d %H:%M:%S%.f',
  '%Y-%m-%dT%H:%M:%S',
  '%d %B %Y %H:%M',
  '%b %e %H:%M:%S %Y',
  '%Y%m%d%H%M%S',
  '%F %T%.3f',
  ' %Y-%m-%d %R ',
];

/** UTC and zones with transitions of an hour, of half an hour (Lord Howe), and at a half-hour offset (St John's). */
const ZONES = ['UTC', 'Europe/Berlin', 'Australia/Lord_Howe', 'America/St_Johns'];

/** Wall-clock seconds around each of the zone's transitions in 2021 and 1995 (in the gap, the overlap, a day off), and away from them. */
function localTimes(zone: TimeZone): number[] {
  const out: number[] = [1_609_459_200, 1_625_097_600, 0, -1_000_000_000, 4_000_000_000];
  for (const year of [1995, 2021]) {
    const start = Date.UTC(year, 0, 1) / 1000;
    for (let t = start; t < start + 366 * 86_400; t += 3600) {
      const before = zone.offsetAt(t);
      if (zone.offsetAt(t + 3600) === before) continue;
      let transition = t;
      while (zone.offsetAt(transition + 60) === before) transition += 60;
      const local = transition + before;
      for (let k = -8; k <= 8; k++) out.push(local + k * 900, local + k * 900 + 86_400, local + k * 900 - 86_400);
    }
  }
  return out;
}

test('parse_timestamp of local time: the stdlib reads it in the instance zone as the JS function does', async () => {
  for (const zoneName of ZONES) {
    const zone = namedTimeZone(zoneName);
    const dynamic = await countingProgram('parse_timestamp!(.text, string!(.format))', 'parse_timestamp', zoneName);
    for (const format of LOCAL_FORMATS) {
      const formatArgs = [literal(format), 'string!(.format)'];
      for (const formatArg of formatArgs) {
        const literalFormat = formatArg === literal(format);
        const { program, jsCalls } = literalFormat
          ? await countingProgram(`parse_timestamp!(.text, ${formatArg})`, 'parse_timestamp', zoneName)
          : dynamic;
        const callsBefore = jsCalls();
        const texts = localTimes(zone).map((local) =>
          strftimeFormatter(format.trim())(BigInt(local) * 1_000_000_000n + 120_000_000n, UTC),
        );
        texts.push('', '31/02/2021 10:00:00', '2021-02-29 10:00:00', '1 Smarch 2021 10:00');
        for (const text of texts) {
          assert.is(
            programParse(program, text, format),
            jsParse(text, format, zoneName),
            `${literal(text)} with ${formatArg} = ${literal(format)} in ${zoneName}`,
          );
        }
        const inStdlib = texts.length - (jsCalls() - callsBefore);
        assert.ok(
          inStdlib > texts.length / 3,
          `${format} in ${zoneName}: ${inStdlib} of ${texts.length} in the stdlib`,
        );
      }
    }
  }
});

test('parse_timestamp formats the stdlib does not read stay with the JS function', async () => {
  const cases: Array<[string, string]> = [
    ['"%d/%m/%Y %I:%M %p"', '01/02/2020 10:00 AM'],
    ['"%y-%m-%d %H:%M %z"', '20-02-01 10:00 +0000'],
    ['"%a %d/%m/%Y %H:%M %z"', 'Sat 01/02/2020 10:00 +0000'],
    ['"%d/%m/%Y %H:%M %::z"', '01/02/2020 10:00 +00:00'],
    ['string!(.format)', 'Sat 01/02/2020 10:00 +0000'],
  ];
  for (const [args, text] of cases) {
    const { program, jsCalls } = await countingProgram(`parse_timestamp!(.text, ${args})`);
    const { result } = program.run({ text, format: '%a %d/%m/%Y %H:%M %z' });
    assert.is((result as Timestamp).nanos, 1_580_551_200_000_000_000n, args);
    assert.is(jsCalls(), 1, args);
  }
});

test('parse_timestamp with a literal timezone reads a local time in the stdlib', async () => {
  for (const [args, nanos] of [
    ['"%d/%m/%Y %H:%M %z", timezone: "UTC"', 1_580_551_200_000_000_000n],
    ['"%d/%m/%Y %H:%M", timezone: "Europe/Paris"', 1_580_547_600_000_000_000n],
    ['"%d/%m/%Y %H:%M", timezone: "America/New_York"', 1_580_569_200_000_000_000n],
  ] as const) {
    const { program, jsCalls } = await countingProgram(`parse_timestamp!(.text, ${args})`);
    const { result } = program.run({ text: args.includes('%z') ? '01/02/2020 10:00 +0000' : '01/02/2020 10:00' });
    assert.is((result as Timestamp).nanos, nanos, args);
    assert.is(jsCalls(), 0, args);
  }
});

test.run();

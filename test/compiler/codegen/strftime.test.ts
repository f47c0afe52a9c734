// format_timestamp with a constant format in UTC runs in the stdlib (compiler/codegen/strftime.ts,
// stdlib-as/strftime.ts): the same text as the JS implementation (runtime/strftime.ts) for every specifier,
// padding flag and fraction form, over instants across the whole i64 nanosecond range.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, compileToModule, Timestamp } from '../../../runtime/index.js';
import { strftimeFormatter } from '../../../runtime/strftime.js';
import { UTC } from '../../../runtime/time-zones.js';

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

test.run();

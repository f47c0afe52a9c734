// parse_timestamp with a literal `timezone` reads local times in the stdlib (`strftime_parse` with the zone, offsets
// from the host per time read); the JS function answers times it leaves (within a day of a transition, names
// that are no zone). Compiled with the zone as a literal and from a variable (the JS function's path), every
// time gives the same result or error.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile } from '../../runtime/index.js';

const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC', 'local', 'Nope'];
const TIMES = [
  '2024-03-13 20:45:38',
  '2024-03-31 02:30:00', // skipped in Paris
  '2024-10-27 02:30:00', // repeated in Paris
  '2024-03-10 02:30:00', // skipped in New York
  '2024-04-07 01:45:00', // Lord Howe's half hour
  '1969-12-31 23:59:59',
  '2024-02-30 10:00:00',
  'garbage',
];

test('a literal timezone gives what the JS function gives, at transitions and for names that are no zone', async () => {
  for (const zone of ZONES) {
    const format = '"%Y-%m-%d %H:%M:%S"';
    const literal = await compile(`.t, .e = parse_timestamp(.s, ${format}, timezone: ${JSON.stringify(zone)})`);
    const variable = await compile(`z = ${JSON.stringify(zone)}\n.t, .e = parse_timestamp(.s, ${format}, timezone: z)`);
    for (const s of TIMES) {
      // Error messages name the call's position in its program.
      const [mine, theirs] = [literal, variable].map((program) =>
        JSON.stringify(program.run({ s }), (_key, value: unknown) =>
          typeof value === 'bigint' ? `${value}n` : value,
        ).replace(/ at \(\d+:\d+\)/, ''),
      );
      assert.is(mine, theirs, `${zone}: ${s}`);
    }
  }
});

test.run();

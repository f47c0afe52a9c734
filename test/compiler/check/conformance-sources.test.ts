// Every documented example of upstream VRL compiles (parse + check) without errors, as VRL documents. Examples
// that name files (a public suffix list, read when the call compiles) find upstream's test data under
// test/data/functions, the directory they are checked in (the conformance runner uses its own copy).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkProgram } from '../../../compiler/compile.js';

const FILE = path.resolve('../shared/conformance/functions.jsonl');
const DATA = fileURLToPath(new URL('../../../../test/data/functions/', import.meta.url));

let previousDirectory = '';
test.before(() => {
  previousDirectory = process.cwd();
  process.chdir(DATA);
});
test.after(() => process.chdir(previousDirectory));

test('every conformance example source compiles', async () => {
  if (!fs.existsSync(FILE)) {
    console.log(`  (skipped: ${FILE} not present)`);
    return;
  }
  const cases = fs
    .readFileSync(FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { function: string; title: string; source: string });
  const failures: string[] = [];
  for (const c of cases) {
    try {
      checkProgram(c.source, { timezone: 'UTC' });
    } catch (e) {
      failures.push(`${c.function} / ${c.title}\n${(e as Error).message}`);
    }
  }
  assert.ok(cases.length >= 600, `read ${cases.length} cases`);
  assert.is(
    failures.length,
    0,
    `${failures.length} of ${cases.length} failed to compile:\n\n${failures.slice(0, 10).join('\n\n')}`,
  );
});

test.run();

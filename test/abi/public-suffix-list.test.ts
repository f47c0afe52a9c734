import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPublicSuffixList } from '../../abi/public-suffix-list.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-psl-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

function list(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const problem = (path: string): string | undefined => {
  try {
    readPublicSuffixList(path);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

test('rules count from a BEGIN ICANN/PRIVATE DOMAINS line; // lines are comments; a rule is the first word', () => {
  const path = list(
    'ok.dat',
    'before.section\n// ===BEGIN ICANN DOMAINS===\n\n// a comment\nCustomDev extra words\n*.wild\r\n// ===BEGIN PRIVATE DOMAINS===\n!www.wild\n',
  );
  assert.equal([...readPublicSuffixList(path)].sort(), ['!www.wild', '*.wild', 'customdev']);
});

test('a list VRL cannot read or parse, in its words', () => {
  assert.is(problem(join(dir, 'missing.dat')), 'Unable to read psl file');
  assert.is(problem(dir), 'Unable to read psl file');
  assert.is(problem(list('latin1.dat', new Uint8Array([0x2f, 0x2f, 0x20, 0xe9, 0x0a]))), 'Unable to read psl file');
  assert.is(problem(list('empty.dat', '')), 'Unable to parse psl file');
  assert.is(problem(list('no-section.dat', 'customdev\n')), 'Unable to parse psl file');
  assert.is(problem(list('exception.dat', '// BEGIN ICANN DOMAINS\n!bad\n')), 'Unable to parse psl file');
  assert.is(problem(list('empty-label.dat', '// BEGIN ICANN DOMAINS\na..b\n')), 'Unable to parse psl file');
});

test.run();

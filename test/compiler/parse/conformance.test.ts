import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from '../../../compiler/parse/index.js';

// dist-test/test/compiler/parse/ → the project root → its sibling `shared/`.
const functionsFile = fileURLToPath(new URL('../../../../../shared/conformance/functions.jsonl', import.meta.url));

test('every upstream function example parses without diagnostics', () => {
  if (!existsSync(functionsFile)) {
    console.log(`  note: ${functionsFile} not found; conformance sources not checked`);
    return;
  }
  const sources = readFileSync(functionsFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { source: string }).source);
  assert.ok(sources.length > 600, `expected the 623 examples, found ${sources.length}`);
  const failures = sources.flatMap((source) => {
    const { program, diagnostics } = parse(source);
    return diagnostics.length || !program
      ? [`${JSON.stringify(source)}: ${JSON.stringify(diagnostics[0]?.labels)}`]
      : [];
  });
  assert.equal(failures, [], `${failures.length} of ${sources.length} examples did not parse`);
});

test('a 1,000-line program of varied statements parses without diagnostics', () => {
  const statements = [
    '.message = downcase(string!(.message))',
    'parsed, err = parse_json(.payload)',
    'if err == null && is_object(parsed) { . |= object!(parsed) } else { .error = err }',
    '.tags = map_values(object(.tags) ?? {}) -> |v| { to_string(v) ?? "" }',
    '.status = to_int(.status) ?? 0 # fallback',
    '.ok = .status >= 200 && .status < 300 || exists(.override)',
    '.path = split(.url, "/")[1] ?? "/"',
    '.summary = "{{ host }}: " + join!([.method, .path, to_string(.status)], " ")',
  ];
  const source = Array.from({ length: 1000 }, (_, i) =>
    i % 50 === 0 ? 'host = "h"' : statements[i % statements.length],
  ).join('\n');
  assert.equal(parse(source).diagnostics, []);
});

test.run();

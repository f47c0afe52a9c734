import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ABI_VERSION } from '../../runtime/batch.js';
import { ndjsonChunks, readModuleInfo, RemapInstance } from '../../runtime/module.js';

/** LEB128 of an unsigned integer. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n ? byte | 0x80 : byte);
  } while (n);
  return out;
}

/** An empty wasm module with the given custom sections. */
function emptyModule(sections: Record<string, string | Uint8Array> = {}): Uint8Array {
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  for (const [name, content] of Object.entries(sections)) {
    const body = [...leb(Buffer.byteLength(name)), ...Buffer.from(name), ...Buffer.from(content)];
    bytes.push(0, ...leb(body.length), ...body);
  }
  return new Uint8Array(bytes);
}

const info = { abi: ABI_VERSION, compiler: '0.1.0', source: '.a = 1', options: { timezone: 'UTC' }, hostFunctions: [] };
const withInfo = (fields: object) => emptyModule({ svc: JSON.stringify({ ...info, ...fields }) });

test('readModuleInfo returns the svc section from bytes or a compiled module', () => {
  const bytes = withInfo({ spans: [[0, 6]] });
  assert.equal(readModuleInfo(bytes), { ...info, spans: [[0, 6]] });
  assert.equal(readModuleInfo(new WebAssembly.Module(bytes)), { ...info, spans: [[0, 6]] });
});

test('readModuleInfo refuses modules without a well-formed svc section', () => {
  assert.throws(() => readModuleInfo(emptyModule()), /not a compiled remap module: it has no "svc" custom section/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: '{' })), /"svc" section is not valid JSON/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: '[]' })), /malformed: no "abi" version/);
  assert.throws(() => readModuleInfo(emptyModule({ svc: 'null' })), /malformed: not an object/);
  assert.throws(() => readModuleInfo(withInfo({ compiler: 1 })), /malformed: no "compiler" version/);
  assert.throws(() => readModuleInfo(withInfo({ source: undefined })), /malformed: no "source"/);
  assert.throws(() => readModuleInfo(withInfo({ options: null })), /malformed: no "options" object/);
  assert.throws(() => readModuleInfo(withInfo({ hostFunctions: [1] })), /"hostFunctions" is not a list of names/);
  assert.throws(() => readModuleInfo(new Uint8Array([1, 2, 3])), WebAssembly.CompileError);
});

test('a module of another ABI version is refused, naming both versions', () => {
  assert.throws(
    () => new RemapInstance(withInfo({ abi: 2, compiler: '9.0.0' })),
    (error: Error) =>
      error.message === 'the module uses ABI version 2 (compiled by svc 9.0.0), but this svc runs ABI version 1: ' +
        'compile the program again',
  );
});

test('a module calling an unknown host function is refused', () => {
  assert.throws(
    () => new RemapInstance(withInfo({ hostFunctions: ['no_such_function'] })),
    /the module calls host function "no_such_function", which this svc does not provide/,
  );
  assert.throws(() => new RemapInstance(withInfo({ hostFunctions: ['constructor'] })), /host function "constructor"/);
});

test('a module without the ABI exports is refused, listing them', () => {
  assert.throws(
    () => new RemapInstance(withInfo({})),
    /the module lacks the exports memory, svc_init, alloc, reset, run_batch, run_ndjson, output_len, errors_ptr, errors_len, arena_used/,
  );
});

const text = (chunks: Iterable<{ bytes: Uint8Array; firstLine: number }>) =>
  [...chunks].map(({ bytes, firstLine }) => [Buffer.from(bytes).toString(), firstLine]);

test('ndjsonChunks keeps small inputs whole', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('{"a":1}\n{"a":2}\n'), 100)), [['{"a":1}\n{"a":2}\n', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from('1\n2'), 3)), [['1\n2', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from(''), 3)), []);
});

test('ndjsonChunks cuts after the last newline that fits, counting lines', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('aa\nbb\ncc\ndd'), 7)), [['aa\nbb\n', 0], ['cc\ndd', 2]]);
  assert.equal(text(ndjsonChunks(Buffer.from('a\n\n\nb\nc\n'), 4)), [['a\n\n\n', 0], ['b\nc\n', 3]]);
  assert.equal(text(ndjsonChunks(Buffer.from('ab\ncd\n'), 3)), [['ab\n', 0], ['cd\n', 1]]);
});

test('ndjsonChunks keeps a line longer than the limit whole', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('a\nlong line\nb\n'), 4)), [['a\n', 0], ['long line\n', 1], ['b\n', 2]]);
  assert.equal(text(ndjsonChunks(Buffer.from('long line'), 4)), [['long line', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from('long line\n'), 4)), [['long line\n', 0]]);
});

test('ndjsonChunks pieces put together are the input', () => {
  const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 37) }));
  const input = Buffer.from(lines.join('\n') + '\n');
  for (const max of [1, 10, 64, 1000, 100_000]) {
    const chunks = [...ndjsonChunks(input, max)];
    assert.equal(Buffer.concat(chunks.map((c) => c.bytes)), input);
    for (const { bytes, firstLine } of chunks) {
      assert.is(Buffer.from(bytes).toString().split('\n')[0], lines[firstLine]);
      if (max >= 100) assert.ok(bytes.length <= max);
    }
  }
});

test.run();

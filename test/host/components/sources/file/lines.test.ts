import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineSplitter } from '../../../../../host/components/sources/file/lines.js';

/** Feeds the chunks and returns the lines, the bytes consumed in total and the oversize count. */
function split(splitter: LineSplitter, chunks: string[]) {
  const lines: string[] = [];
  let consumed = 0;
  let oversize = 0;
  for (const chunk of chunks) {
    const result = splitter.feed(Buffer.from(chunk));
    for (const { data, ranges } of result.parts)
      for (let i = 0; i < ranges.length; i += 2) lines.push(data.subarray(ranges[i], ranges[i + 1]).toString());
    consumed += result.consumed;
    oversize += result.oversize;
  }
  return { lines, consumed, oversize };
}

test('complete lines come out, an unfinished one is held until its delimiter arrives', () => {
  const splitter = new LineSplitter(Buffer.from('\n'), 100);
  const first = split(splitter, ['one\ntw']);
  assert.equal(first.lines, ['one']);
  assert.is(first.consumed, 4);
  assert.is(splitter.heldBytes, 2);
  const second = split(splitter, ['o\nthree\n']);
  assert.equal(second.lines, ['two', 'three']);
  assert.is(second.consumed, 10 - 2 + 2, 'consumed counts from the first held byte');
  assert.is(splitter.heldBytes, 0);
});

test('a delimiter of several bytes can be split across chunks', () => {
  const splitter = new LineSplitter(Buffer.from('\r\n'), 100);
  assert.equal(split(splitter, ['a\r', '\nb\r\nc\r', '\n']).lines, ['a', 'b', 'c']);
  assert.equal(split(splitter, ['x\ry\r\n']).lines, ['x\ry']);
});

test('empty lines are lines', () => {
  assert.equal(split(new LineSplitter(Buffer.from('\n'), 10), ['\n\na\n']).lines, ['', '', 'a']);
});

test('lines longer than max_line_bytes are dropped up to their delimiter and counted', () => {
  const splitter = new LineSplitter(Buffer.from('\n'), 5);
  const result = split(splitter, ['12345\n123456\nok\n']);
  assert.equal(result.lines, ['12345', 'ok']);
  assert.is(result.oversize, 1);
  // An oversized line spread over several chunks is counted once, and what follows it is read.
  const spread = split(splitter, ['abcdefgh', 'ijkl', 'mn\nafter\n']);
  assert.equal(spread.lines, ['after']);
  assert.is(spread.oversize, 1);
  assert.is(splitter.heldBytes, 0);
});

test('the unfinished rest of a file can be taken as its last line', () => {
  const splitter = new LineSplitter(Buffer.from('\n'), 100);
  split(splitter, ['a\nlast']);
  assert.is(splitter.takeRest()?.toString(), 'last');
  assert.is(splitter.takeRest(), undefined);
});

test('a line fed in many small chunks is scanned and copied in time linear in its length', () => {
  // Counts the bytes every search looks at and every join copies (the splitter's only ways to touch bytes).
  let scanned = 0;
  let copied = 0;
  const indexOf = Buffer.prototype.indexOf;
  const concat = Buffer.concat;
  Buffer.prototype.indexOf = function (this: Buffer, value: never, from?: never, encoding?: never) {
    scanned += this.length - (typeof from === 'number' ? from : 0);
    return indexOf.call(this, value, from, encoding);
  } as typeof indexOf;
  Buffer.concat = (list: readonly Uint8Array[], length?: number) => {
    const joined = concat(list, length);
    copied += joined.length;
    return joined;
  };
  try {
    for (const delimiter of ['\n', '\r\n']) {
      [scanned, copied] = [0, 0];
      const length = 10 * 1024 * 1024;
      const splitter = new LineSplitter(Buffer.from(delimiter), length);
      const chunk = Buffer.alloc(2048, 'x');
      const lines: number[] = [];
      for (let fed = 0; fed < length; fed += chunk.length) {
        const result = splitter.feed(chunk);
        assert.is(result.parts.length, 0);
      }
      for (const { ranges } of splitter.feed(Buffer.from(`${delimiter}next${delimiter}`)).parts)
        for (let i = 0; i < ranges.length; i += 2) lines.push(ranges[i + 1]! - ranges[i]!);
      assert.equal(lines, [length, 4]);
      assert.ok(scanned <= 3 * length, `scanned ${scanned} bytes for a line of ${length}`);
      assert.ok(copied <= 3 * length, `copied ${copied} bytes for a line of ${length}`);
    }
  } finally {
    Buffer.prototype.indexOf = indexOf;
    Buffer.concat = concat;
  }
});

test('an oversized line is not kept while it is skipped', () => {
  const splitter = new LineSplitter(Buffer.from('\r\n'), 10);
  const result = split(splitter, ['0123456789abc', 'defgh\r', 'ijk']);
  assert.is(result.oversize, 1);
  assert.ok(splitter.heldBytes <= 1, `held ${splitter.heldBytes} bytes of a dropped line`);
  assert.equal(split(splitter, ['\r\nok\r\n']).lines, ['ok']);
});

test.run();

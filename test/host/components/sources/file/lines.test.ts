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
    for (let i = 0; i < result.ranges.length; i += 2)
      lines.push(result.data.subarray(result.ranges[i], result.ranges[i + 1]).toString());
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
  assert.is(second.consumed, 10 - 2 + 2, 'consumed counts the held bytes again, from the start of data');
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

test.run();

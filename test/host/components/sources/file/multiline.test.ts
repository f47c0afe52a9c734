import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineAggregator, type MultilineOptions } from '../../../../../host/components/sources/file/multiline.js';
import type { PendingLines } from '../../../../../host/components/sources/file/watcher.js';

/** `lines` as the watcher gives them: one buffer, newline-delimited, starting at file position `base`. */
function pendingOf(lines: string[], base = 0): PendingLines {
  const data = Buffer.from(lines.map((line) => `${line}\n`).join(''));
  const ranges: number[] = [];
  let at = 0;
  for (const line of lines) {
    ranges.push(at, at + Buffer.byteLength(line));
    at += Buffer.byteLength(line) + 1;
  }
  return { parts: [{ data, ranges, base }], lines: lines.length, endPosition: base + data.length };
}

const messagesOf = (pending: PendingLines) =>
  pending.parts.map(({ data, ranges }) => data.subarray(ranges[0], ranges[1]).toString());

const aggregate = (options: Partial<MultilineOptions>, lines: string[], flush = true) =>
  messagesOf(
    new LineAggregator({
      start_pattern: '',
      condition_pattern: '',
      mode: 'continue_through',
      timeout_ms: 1000,
      ...options,
    }).aggregate(pendingOf(lines), flush),
  );

test('continue_through: a Java stack trace is one message; lines that begin none go alone', () => {
  const trace = [
    'INFO started',
    'ERROR boom',
    '  at a.B.c(B.java:1)',
    '  at d.E.f(E.java:2)',
    'Caused by: x',
    'INFO done',
  ];
  assert.equal(
    aggregate({ start_pattern: '^[^\\s]', condition_pattern: '^[\\s]+|^Caused by:', mode: 'continue_through' }, trace),
    ['INFO started', 'ERROR boom\n  at a.B.c(B.java:1)\n  at d.E.f(E.java:2)\nCaused by: x', 'INFO done'],
  );
  // A line that ends a message and matches no start goes on alone.
  assert.equal(
    aggregate({ start_pattern: '^S', condition_pattern: '^ ', mode: 'continue_through' }, ['S1', ' a', 'x', 'S2']),
    ['S1\n a', 'x', 'S2'],
  );
});

test('continue_past: the matching lines and one more', () => {
  assert.equal(
    aggregate({ start_pattern: '\\\\$', condition_pattern: '\\\\$', mode: 'continue_past' }, [
      'a \\',
      'b \\',
      'c',
      'd',
    ]),
    ['a \\\nb \\\nc', 'd'],
  );
});

test('halt_before: lines up to the next one matching the condition', () => {
  assert.equal(
    aggregate({ start_pattern: '^(INFO|ERROR) ', condition_pattern: '^(INFO|ERROR) ', mode: 'halt_before' }, [
      'INFO a',
      'more',
      'ERROR b',
      'more b',
    ]),
    ['INFO a\nmore', 'ERROR b\nmore b'],
  );
});

test('halt_with: lines up to and with the first one matching the condition', () => {
  assert.equal(
    aggregate({ start_pattern: '^BEGIN', condition_pattern: ';$', mode: 'halt_with' }, ['BEGIN x', 'y;', 'z']),
    ['BEGIN x\ny;', 'z'],
  );
});

test('a message being gathered stays back, and so does the end position: at its first line', () => {
  const aggregator = new LineAggregator({
    start_pattern: '^[^\\s]',
    condition_pattern: '^\\s',
    mode: 'continue_through',
    timeout_ms: 60_000,
  });
  const first = aggregator.aggregate(pendingOf(['one', 'two', ' two.1'], 100), false);
  assert.equal(messagesOf(first), ['one']);
  assert.equal(
    first.parts.map((part) => part.base),
    [100],
  );
  assert.is(first.endPosition, 104);
  assert.ok(aggregator.deadline !== undefined && aggregator.deadline > Date.now());
  const second = aggregator.aggregate(pendingOf([' two.2', 'three'], 115), false);
  assert.equal(messagesOf(second), ['two\n two.1\n two.2']);
  assert.equal(
    second.parts.map((part) => part.base),
    [104],
  );
  assert.is(second.endPosition, 122);
  const flushed = aggregator.aggregate({ parts: [], lines: 0, endPosition: 128 }, true);
  assert.equal(messagesOf(flushed), ['three']);
  assert.is(flushed.endPosition, 128);
  assert.is(aggregator.deadline, undefined);
});

test.run();

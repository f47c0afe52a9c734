import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBatch, encodeBatch, type InputEvent } from '../../abi/batch.js';
import {
  CodecModule,
  parseFieldPath,
  regexVm,
  type DecodeOptions,
  type EncodeOptions,
} from '../../runtime/codec-module.js';
import { IntegralFloat } from '../../abi/codec.js';
import { Timestamp } from '../../abi/values.js';
import { regexProgram } from '../../abi/regex-program.js';
import { RustRegex, useRegexVm, type RegexMatch } from '../../abi/regex.js';
import { rustMatches } from '../../abi/rust-regex.js';
import { COMMON_LOG_FORMAT } from '../../abi/access-log.js';
import { generator } from '../support/regex-generator.js';
import { Stdlib } from '../support/stdlib.js';

const codec = new CodecModule();
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

function decode(input: string | Uint8Array, options: Partial<DecodeOptions> = {}) {
  const result = codec.decode(typeof input === 'string' ? Buffer.from(input) : input, {
    framing: { method: 'newline_delimited' },
    codec: 'bytes',
    ...options,
  });
  return { ...result, events: decodeBatch(result.batch).events };
}

function encode(events: InputEvent[], options: EncodeOptions) {
  const result = codec.encode(encodeBatch(events, 0), options);
  return { text: text(result.bytes), errors: result.errors };
}

const logs = (...events: unknown[]): InputEvent[] => events.map((event) => ({ event }));
const messages = (result: ReturnType<typeof decode>) =>
  result.events.map((e) => (e.event as { message: unknown }).message);

// ---- framing ------------------------------------------------------------------------------------------------

test('newline framing keeps a partial last line for the next call, and takes it at eof', () => {
  const first = decode('one\ntwo\nthr');
  assert.equal(messages(first), ['one', 'two']);
  assert.is(first.consumed, 8);
  const rest = Buffer.concat([Buffer.from('one\ntwo\nthr').subarray(first.consumed), Buffer.from('ee\nfour')]);
  const second = decode(rest, { eof: true });
  assert.equal(messages(second), ['three', 'four']);
  assert.is(second.consumed, rest.length);
  assert.equal(messages(decode('a\n\nb\n')), ['a', '', 'b']);
});

test('max_length discards longer frames with an error, also across calls; truncate cuts them', () => {
  const framing = { method: 'newline_delimited', max_length: 3 } as const;
  const dropped = decode('abc\nabcdef\nxy\n', { framing });
  assert.equal(messages(dropped), ['abc', 'xy']);
  assert.equal(dropped.errors, [{ frame: 1, message: 'frame is longer than max_length: discarded' }]);
  const partial = decode('abcdef', { framing });
  assert.is(partial.consumed, 6);
  assert.is(partial.errors.length, 1);
  const after = decode('gh\nok\n', { framing, discard: partial.discard });
  assert.equal(messages(after), ['ok']);
  const cut = decode('abcdef\nxy\n', { framing: { ...framing, oversized_action: 'truncate' } });
  assert.equal(messages(cut), ['abc', 'xy']);
});

test('character_delimited, bytes and length_delimited framings', () => {
  assert.equal(messages(decode('a|b|c', { framing: { method: 'character_delimited', delimiter: '|' }, eof: true })), [
    'a',
    'b',
    'c',
  ]);
  assert.equal(messages(decode('a\nb', { framing: { method: 'bytes' } })), ['a\nb']);
  assert.equal(decode('', { framing: { method: 'bytes' } }).count, 0);
  const framed = Buffer.from([0, 0, 0, 2, 0x68, 0x69, 0, 0, 0, 3, 0x61]);
  const first = decode(framed, { framing: { method: 'length_delimited' } });
  assert.equal(messages(first), ['hi']);
  assert.is(first.consumed, 6);
  // The rest's header says 4 + 3 bytes; a shorter header says its own size.
  assert.is(first.needed, 7);
  assert.is(decode(framed.subarray(0, 2), { framing: { method: 'length_delimited' } }).needed, 4);
  const offset = { method: 'length_delimited', length_field_offset: 2, length_field_length: 2 } as const;
  assert.is(decode(Buffer.from([9, 9, 0, 0xff, 1]), { framing: offset }).needed, 4 + 0xff);
  const split = decode(Buffer.concat([framed.subarray(first.consumed), Buffer.from('bc')]), {
    framing: { method: 'length_delimited' },
  });
  assert.equal(messages(split), ['abc']);
  const incomplete = decode(framed.subarray(6), { framing: { method: 'length_delimited' }, eof: true });
  assert.equal(incomplete.errors, [{ frame: 0, message: 'bytes remaining on stream' }]);
  const little = decode(Buffer.from([2, 0, 0x68, 0x69]), {
    framing: { method: 'length_delimited', length_field_length: 2, length_field_is_big_endian: false },
  });
  assert.equal(messages(little), ['hi']);
  const big = decode(Buffer.from([0, 0, 0, 5, 0x61, 0x62, 0, 0, 0, 1, 0x63]), {
    framing: { method: 'length_delimited', max_frame_length: 4 },
  });
  assert.equal(big.errors, [{ frame: 0, message: 'frame size too big' }]);
  assert.equal(messages(big), []);
});

test('octet counting reads LEN SP MSG and falls back to newline-delimited lines', () => {
  const framing = { method: 'octet_counting' } as const;
  const result = decode('5 hello3 abcplain line\n', { framing });
  assert.equal(messages(result), ['hello', 'abc', 'plain line']);
  const partial = decode('11 hello', { framing });
  assert.equal(partial.count, 0);
  assert.is(partial.consumed, 0);
  assert.is(partial.needed, 14);
  assert.equal(messages(decode('11 hello world', { framing })), ['hello world']);
  // Digits without their space: one more byte tells; an uncounted line ends at a newline.
  assert.is(decode('5 hello12', { framing }).needed, 3);
  assert.is(decode('5 helloplain', { framing }).needed, 0);
});

// ---- decoders -----------------------------------------------------------------------------------------------

test('bytes keeps invalid UTF-8 as bytes and uses the message key', () => {
  const result = decode(Buffer.from([0x61, 0xff, 0x0a]));
  assert.equal(messages(result), [new Uint8Array([0x61, 0xff])]);
  assert.equal(decode('x\n', { messageKey: '.log.line' }).events[0]!.event, { log: { line: 'x' } });
});

test('json: an object is an event, an array one per element, other values and bad text are errors', () => {
  const result = decode('{"a":1}\n[{"b":2},{"c":3}]\n\n3\n{bad\n[{"d":4},1]\n', { codec: 'json' });
  assert.equal(
    result.events.map((e) => e.event),
    [{ a: 1n }, { b: 2n }, { c: 3n }],
  );
  assert.equal(result.errors, [
    { frame: 3, message: 'Attempted to convert non-Object JSON into a LogEvent.' },
    { frame: 4, message: 'Error parsing JSON: Error("key must be a string", line: 1, column: 2)' },
    { frame: 5, message: 'Attempted to convert non-Object JSON into a LogEvent.' },
  ]);
  const lossy = decode(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), {
    codec: 'json',
    eof: true,
  });
  assert.equal(lossy.events[0]!.event, { a: '\ufffd' });
  const strict = decode(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), {
    codec: 'json',
    lossy: false,
    eof: true,
  });
  assert.is(strict.count, 0);
  assert.match(strict.errors[0]!.message, /^Error parsing JSON: Error\("invalid unicode code point"/);
});

test('syslog: parsed fields, and an error for a line that is not syslog', () => {
  const result = decode('<13>1 2020-03-13T20:45:38.119Z host app 2426 ID1 [x@1 a="b"] hi\nnot syslog\n', {
    codec: 'syslog',
  });
  assert.equal(result.events[0]!.event, {
    appname: 'app',
    facility: 'user',
    hostname: 'host',
    message: 'hi',
    msgid: 'ID1',
    procid: 2426n,
    severity: 'notice',
    timestamp: new Timestamp(1584132338119000000n),
    version: 1n,
    'x@1': { a: 'b' },
  });
  assert.equal(result.errors, [{ frame: 1, message: 'unable to parse input as valid syslog message' }]);
});

test('native_json: logs, metrics with Vector types, traces; invalid events are errors', () => {
  const metric =
    '{"name":"x","namespace":"ns","tags":{"a":"b"},"timestamp":"2020-01-01T00:00:00Z","kind":"absolute","counter":{"value":1}}';
  const result = decode(
    `{"log":{"a":1}}\n{"metric":${metric}}\n[{"trace":{"t":1}}]\n{"foo":{}}\n{"metric":{"name":"x","kind":"absolute"}}\n`,
    { codec: 'native_json' },
  );
  assert.equal(
    result.events.map((e) => e.kind),
    ['log', 'metric', 'trace'],
  );
  assert.equal(result.events[1]!.event, {
    counter: { value: 1 },
    kind: 'absolute',
    name: 'x',
    namespace: 'ns',
    tags: { a: 'b' },
    timestamp: new Timestamp(1577836800000000000n),
  });
  assert.equal(
    result.errors.map((e) => e.frame),
    [3, 4],
  );
  assert.match(result.errors[0]!.message, 'unknown event type "foo"');
  assert.match(result.errors[1]!.message, 'a metric needs a value');
});

test('the stamp fills what log events lack, recursively, and leaves metrics alone', () => {
  const stamp = { source_type: 'stdin', host: 'h', nested: { a: 1, b: 2 }, timestamp: new Timestamp(5n) };
  const result = decode('{"host":"mine","nested":{"a":"x"}}\n{"nested":"scalar"}\n', { codec: 'json', stamp });
  assert.equal(
    result.events.map((e) => e.event),
    [
      { host: 'mine', nested: { a: 'x', b: 2n }, source_type: 'stdin', timestamp: new Timestamp(5n) },
      { host: 'h', nested: 'scalar', source_type: 'stdin', timestamp: new Timestamp(5n) },
    ],
  );
  const metric = decode('{"metric":{"name":"x","kind":"absolute","gauge":{"value":2.5}}}', {
    codec: 'native_json',
    stamp,
    eof: true,
  });
  assert.equal(Object.keys(metric.events[0]!.event as object), ['gauge', 'kind', 'name']);
});

test("Vector's log namespace: the payload is the event whatever its type, the stamp is each log's metadata", () => {
  const stamp = { vector: { source_type: 'stdin' }, stdin: { host: 'h' } };
  const vector = { stamp, logNamespace: 'vector' } as const;
  const lines = decode('one\ntwo\n', vector);
  assert.equal(
    lines.events.map((e) => [e.metadata, e.event]),
    [
      [stamp, 'one'],
      [stamp, 'two'],
    ],
  );
  // Any JSON value is an event (an array one per item); the stamp does not touch it.
  const json = decode('{"host":"mine"}\n[1,"x"]\nnull\n', { ...vector, codec: 'json' });
  assert.equal(
    json.events.map((e) => e.event),
    [{ host: 'mine' }, 1n, 'x', null],
  );
  assert.ok(json.events.every((e) => e.metadata !== undefined && Object.keys(e.metadata as object).length === 2));
  // Metrics keep empty metadata.
  const metric = decode('{"metric":{"name":"x","kind":"absolute","gauge":{"value":2.5}}}', {
    ...vector,
    codec: 'native_json',
    eof: true,
  });
  assert.equal(metric.events[0]!.metadata, {});
  // syslog without the syslog source's switch: the fields at the root, as Vector's decoder makes them.
  const syslog = decode('<13>1 2026-11-28T10:00:00Z web app 42 - - hi\n', { ...vector, codec: 'syslog' });
  assert.is((syslog.events[0]!.event as { message: string }).message, 'hi');
  assert.equal(syslog.events[0]!.metadata, stamp);
});

test("the encoders take a non-object event (Vector's log namespace) as the message: text and raw_message write it, json its JSON", () => {
  assert.is(encode(logs('line', 2n, { message: 'field' }), { codec: 'text' }).text, 'line\n2\nfield\n');
  assert.is(encode(logs('line'), { codec: 'raw_message' }).text, 'line\n');
  assert.is(encode(logs('line', [1n]), { codec: 'json' }).text, '"line"\n[1]\n');
  // Vector: logfmt writes a non-object's fields (none), only_fields starts from an empty object.
  assert.is(encode(logs('line'), { codec: 'logfmt' }).text, '\n');
  assert.is(encode(logs('line'), { codec: 'json', only_fields: ['a'] }).text, '{}\n');
});

test('empty input decodes to an empty batch', () => {
  const result = decode('', { codec: 'json', eof: true });
  assert.equal(
    { count: result.count, consumed: result.consumed, events: result.events },
    { count: 0, consumed: 0, events: [] },
  );
});

// ---- encoders -----------------------------------------------------------------------------------------------

const event = {
  message: 'hi there',
  n: { x: new IntegralFloat(1.5), y: [1, 2] },
  f: false,
  t: true,
  ts: new Timestamp(1577836800500000000n),
};

test('json is what svc vrl JSON writes; pretty is serde_json pretty', () => {
  const stdlib = new Stdlib();
  const expected = stdlib.call('fn_encode_json', event);
  assert.equal(encode(logs(event), { codec: 'json' }).text, `${(expected as { value: string }).value}\n`);
  assert.is(
    encode(logs({ a: [1], b: {} }), { codec: 'json', json: { pretty: true } }).text,
    '{\n  "a": [\n    1\n  ],\n  "b": {}\n}\n',
  );
});

test("encode with reuse hands back a view of the module's memory, valid until the next call", () => {
  const own = new CodecModule();
  const first = own.encode(encodeBatch(logs({ a: 1 }), 0), { codec: 'json' }, { reuse: true });
  assert.is(text(first.bytes), '{"a":1}\n');
  const copy = own.encode(encodeBatch(logs({ a: 1 }), 0), { codec: 'json' });
  assert.is.not(copy.bytes.buffer, first.bytes.buffer);
  assert.is(copy.bytes.buffer.byteLength, copy.bytes.length);
  // The next call reuses the memory the first output was in.
  own.encode(encodeBatch(logs({ b: 2 }), 0), { codec: 'json' }, { reuse: true });
  assert.is(text(first.bytes), '{"b":2}\n');
});

test('text, raw_message, logfmt and csv', () => {
  assert.is(encode(logs(event, { other: 1 }), { codec: 'text' }).text, 'hi there\n\n');
  assert.is(encode(logs({ message: 2.0 }, { message: new Uint8Array([0xff]) }), { codec: 'text' }).text, '2\n\ufffd\n');
  assert.equal(
    codec.encode(encodeBatch(logs({ message: new Uint8Array([0xff]) }), 0), { codec: 'raw_message' }).bytes,
    new Uint8Array([0xff, 0x0a]),
  );
  assert.is(
    encode(logs(event), { codec: 'logfmt' }).text,
    'message="hi there" n.x=1.5 n.y.0=1 n.y.1=2 t ts=2020-01-01T00:00:00.500Z\n',
  );
  assert.is(
    encode(logs({ a: 'q"r', b: '', c: 'k=v', d: 'back\\slash', e: null }), { codec: 'logfmt' }).text,
    'a="q\\"r" b= c="k=v" d=back\\\\slash e=null\n',
  );
  const csv = { fields: ['message', 'n.x', 'ts', 'missing', 'n', 'q'] };
  assert.is(
    encode(logs({ ...event, q: 'a "b", c' }), { codec: 'csv', csv }).text,
    'hi there,1.5,2020-01-01T00:00:00.500Z,,,"a ""b"", c"\n',
  );
  assert.is(
    encode(logs({ q: 'a"b' }), { codec: 'csv', csv: { fields: ['q', 'q'], double_quote: false, escape: '\\' } }).text,
    '"a\\"b","a\\"b"\n',
  );
  assert.is(
    encode(logs({ a: '1', b: 'x' }), {
      codec: 'csv',
      csv: { fields: ['a', 'b'], quote_style: 'non_numeric', delimiter: ';' },
    }).text,
    '1;"x"\n',
  );
  assert.is(encode(logs({}), { codec: 'csv', csv: { fields: ['a'] } }).text, '""\n');
  assert.throws(() => encode(logs({}), { codec: 'csv' }), /needs csv.fields/);
});

test('metrics: json and native_json in Vector field order, text in Vector form; other codecs refuse them', () => {
  const metric: InputEvent = {
    kind: 'metric',
    event: {
      name: 'x',
      namespace: 'ns',
      tags: { a: 'b', 'c d': 'e' },
      timestamp: new Timestamp(0n),
      kind: 'incremental',
      counter: { value: new IntegralFloat(1) },
    },
  };
  const json =
    '{"name":"x","namespace":"ns","tags":{"a":"b","c d":"e"},"timestamp":"1970-01-01T00:00:00Z","kind":"incremental","counter":{"value":1.0}}';
  assert.is(encode([metric], { codec: 'json' }).text, `${json}\n`);
  assert.is(encode([metric], { codec: 'native_json' }).text, `{"metric":${json}}\n`);
  assert.is(encode([metric], { codec: 'text' }).text, '1970-01-01T00:00:00Z ns_x{a="b","c d"="e"} + 1\n');
  assert.equal(encode([metric, { event: { message: 'ok' } }], { codec: 'raw_message' }), {
    text: 'ok\n',
    errors: [{ event: 0, message: 'the raw_message codec encodes only log events' }],
  });
});

test('only_fields, except_fields and timestamp formats', () => {
  assert.is(
    encode(logs(event), { codec: 'json', only_fields: ['n.x', 'ts', 'absent'] }).text,
    '{"n":{"x":1.5},"ts":"2020-01-01T00:00:00.500Z"}\n',
  );
  assert.is(
    encode(logs(event), { codec: 'json', except_fields: ['n', '.message', 't'] }).text,
    '{"f":false,"ts":"2020-01-01T00:00:00.500Z"}\n',
  );
  const formats = {
    unix: '1577836800',
    unix_ms: '1577836800500',
    unix_us: '1577836800500000',
    unix_ns: '1577836800500000000',
    unix_float: '1577836800.5',
  } as const;
  for (const [format, expected] of Object.entries(formats)) {
    assert.is(
      encode(logs({ ts: event.ts, deep: [event.ts] }), {
        codec: 'json',
        timestamp_format: format as keyof typeof formats,
      }).text,
      `{"deep":[${expected}],"ts":${expected}}\n`,
    );
  }
});

test('encoder framings and encodeEach', () => {
  const two = logs({ message: 'a' }, { message: 'bc' });
  assert.is(encode(two, { codec: 'text', framing: { method: 'character_delimited', delimiter: ',' } }).text, 'a,bc,');
  assert.is(encode(two, { codec: 'text', framing: { method: 'bytes' } }).text, 'abc');
  assert.equal(
    [...codec.encode(encodeBatch(two, 0), { codec: 'text', framing: { method: 'length_delimited' } }).bytes],
    [0, 0, 0, 1, 0x61, 0, 0, 0, 2, 0x62, 0x63],
  );
  assert.equal(codec.encodeEach(encodeBatch(two, 0), { codec: 'json' }).map(text), [
    '{"message":"a"}',
    '{"message":"bc"}',
  ]);
  assert.is(codec.arenaUsed(), 0);
});

test('round trips: json and native_json decode → encode give the input back', () => {
  const lines = '{"a":{"b":[1,2.5,"x"]},"message":"m"}\n{"c":null,"d":true}\n';
  assert.is(text(codec.encode(decode(lines, { codec: 'json' }).batch, { codec: 'json' }).bytes), lines);
  const native =
    '{"log":{"a":1}}\n{"metric":{"name":"x","tags":{"a":"b"},"timestamp":"2020-01-01T00:00:00.250Z","kind":"absolute","gauge":{"value":2.0}}}\n{"trace":{"span":"s"}}\n';
  assert.is(text(codec.encode(decode(native, { codec: 'native_json' }).batch, { codec: 'native_json' }).bytes), native);
});

test('field paths', () => {
  assert.equal(parseFieldPath('.a.b[0]'), ['a', 'b', 0]);
  assert.equal(parseFieldPath('a."b.c"'), ['a', 'b.c']);
  assert.throws(() => parseFieldPath('a.'), /invalid field path "a.": it ends with "."/);
});

test('regexSearch: capture slots of the match; the program stays resident, and is copied again after a trap', () => {
  const codec = new CodecModule({ memoryLimit: 4 * 2 ** 20 });
  const program = regexProgram('(?P<key>[a-z]+)=(?P<value>\\d+)');
  const search = (text: string) => {
    const result = codec.regexSearch(program, Buffer.from(text));
    return 'trap' in result ? result.trap.message : result.value && [...result.value];
  };
  assert.equal(search('é x=12;'), [3, 7, 3, 4, 5, 7]);
  assert.equal(search('nothing'), null);
  assert.match(String(search('a'.repeat(8 * 2 ** 20))), 'memory limit exceeded');
  assert.equal(search('ab=3'), [0, 4, 0, 2, 3, 4]);
});

const found = (m: RegexMatch | null) => m && { start: m.start, end: m.end, groups: Array.from(m.groups) };

test('RustRegex runs on the VM once this module is loaded: the same matches as on re2js, at every start and iterated', () => {
  let searches = 0;
  useRegexVm({
    search(...args) {
      searches++;
      return regexVm.search(...args);
    },
  });
  try {
    const gen = generator(20261129, true);
    const texts = ['', 'plain ascii a1_ b', 'é日本 a1 \u{1F600}x', 'lone \ud800 surrogate é', 'a\nb\r\n é_1'];
    for (let p = 0; p < 300; p++) {
      const pattern = gen.pattern();
      const vm = new RustRegex(pattern);
      const re2 = new RustRegex(pattern, false);
      for (const text of [...texts, gen.input(), gen.input()]) {
        for (let from = 0; from <= text.length; from++) {
          if ((text.charCodeAt(from) & 0xfc00) === 0xdc00) continue;
          assert.equal(
            found(vm.exec(text, from)),
            found(re2.exec(text, from)),
            `${pattern} on ${JSON.stringify(text)} from ${from}`,
          );
        }
        assert.equal(vm.test(text), re2.test(text));
        assert.equal([...rustMatches(vm, text)].length, [...rustMatches(re2, text)].length);
      }
    }
    // The access log parsers' pattern is not one-pass: it runs here, not on V8's engine.
    const line = '10.0.0.1 - bob [10/Oct/2000:13:55:36 -0700] "GET /a b HTTP/1.0" 200 2326';
    const common = new RustRegex(COMMON_LOG_FORMAT.pattern);
    assert.not.ok(common.onBacktracker);
    const before = searches;
    const fields = common.namedGroups(common.exec(line)!);
    assert.equal([fields.path, fields.protocol, fields.size], ['/a', 'b HTTP/1.0', '2326']);
    assert.ok(searches > before, 'the VM ran the search');
  } finally {
    useRegexVm(regexVm);
  }
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  decodeSettings,
  decodingSchema,
  framingSchema,
  logNamespaceOf,
  SourceDecoder,
  sourceStamp,
  stampSource,
  type FrameStream,
  type Stamp,
} from '../../../../host/components/support/decoding.js';
import { concatBatches, splitBatch, type EventBatch } from '../../../../host/topology/batch.js';
import { CodecModule, type DecodeFraming } from '../../../../runtime/engine.js';
import { decodeBatch } from '../../../../abi/batch.js';
import { testEnv } from '../../support/sources.js';

const legacy = (sourceType: string) => ({ sourceType, logNamespace: 'legacy' }) as const;

const messages = (batches: Array<{ bytes: Uint8Array }>) =>
  batches.flatMap((b) => decodeBatch(b.bytes).events.map((e) => (e.event as { message: string }).message));

test('a stream keeps the unfinished frame for the next chunk and ends it at EOF', () => {
  const env = testEnv('stdin');
  const decoder = new SourceDecoder(
    env,
    decodeSettings(decodingSchema.parse(undefined), undefined, { method: 'newline_delimited' }, env, 'legacy'),
  );
  const stream = decoder.stream();
  const stamp = sourceStamp(env, legacy('stdin'));
  assert.equal(messages(stream.push(Buffer.from('one\ntw'), stamp)), ['one']);
  assert.equal(messages(stream.push(Buffer.from('o\nthr'), stamp)), ['two']);
  assert.equal(messages(stream.end(stamp)), ['thr']);
  assert.is(env.metrics.total('component_received_bytes_total'), 11);
});

test('a line fed in many small chunks reaches the codec once: work linear in its length', () => {
  for (const consumerDecodes of [false, true]) {
    const env = { ...testEnv('socket'), consumerDecodes };
    const decoder = new SourceDecoder(
      env,
      decodeSettings(decodingSchema.parse(undefined), undefined, { method: 'newline_delimited' }, env, 'legacy'),
    );
    let decoded = 0;
    const decode = decoder.decode.bind(decoder);
    decoder.decode = (input, ...rest) => {
      decoded += input.length;
      return decode(input, ...rest);
    };
    const stream = decoder.stream();
    const stamp = sourceStamp(env, legacy('socket'));
    const length = 10 * 1024 * 1024;
    const chunk = Buffer.alloc(1024, 'x');
    for (let fed = 0; fed < length; fed += chunk.length) assert.equal(stream.push(chunk, stamp), []);
    const batches = stream.push(Buffer.from('\nnext\n'), stamp);
    const lengths = consumerDecodes
      ? batches.flatMap((batch) => batch.bytes.length)
      : messages(batches).map((message) => message.length);
    assert.equal(lengths, consumerDecodes ? [length + 6] : [length, 4]);
    assert.ok(decoded <= length + 6, `the codec was handed ${decoded} bytes for ${length + 6}`);
  }
});

/** A decoder with `framing` that sums the bytes its codec is handed. */
function countingDecoder(framing: DecodeFraming) {
  const env = testEnv('socket');
  const decoder = new SourceDecoder(
    env,
    decodeSettings(decodingSchema.parse(undefined), undefined, framing, env, 'legacy'),
  );
  const counted = { decoder, handed: 0, stamp: sourceStamp(env, legacy('socket')) };
  const decode = decoder.decode.bind(decoder);
  decoder.decode = (input, ...rest) => {
    counted.handed += input.length;
    return decode(input, ...rest);
  };
  return counted;
}

/** `bytes` pushed `size` bytes at a time. */
function pushChunked(stream: FrameStream, bytes: Uint8Array, size: number, stamp: Stamp): EventBatch[] {
  const batches: EventBatch[] = [];
  for (let at = 0; at < bytes.length; at += size) batches.push(...stream.push(bytes.subarray(at, at + size), stamp));
  return batches;
}

/** A 4-byte big-endian length field before `body`. */
function lengthPrefixed(body: Uint8Array): Uint8Array {
  const framed = Buffer.alloc(4 + body.length);
  framed.writeUInt32BE(body.length);
  framed.set(body, 4);
  return framed;
}

test('a length-prefixed frame read in 64 KiB chunks reaches the codec once: work linear in its length', () => {
  const length = 10 * 1024 * 1024;
  const body = Buffer.alloc(length, 'x');
  const cases: Array<[DecodeFraming, Uint8Array]> = [
    [{ method: 'octet_counting' }, Buffer.concat([Buffer.from(`${length} `), body, Buffer.from('4 next')])],
    [
      { method: 'length_delimited', max_frame_length: 2 * length },
      Buffer.concat([lengthPrefixed(body), lengthPrefixed(Buffer.from('next'))]),
    ],
  ];
  for (const [framing, input] of cases) {
    const counted = countingDecoder(framing);
    const { decoder, stamp } = counted;
    const stream = decoder.stream();
    const batches = [...pushChunked(stream, input, 64 * 1024, stamp), ...stream.end(stamp)];
    assert.equal(
      messages(batches).map((message) => message.length),
      [length, 4],
      framing.method,
    );
    assert.is(messages(batches)[0], body.toString());
    // One chunk is handed twice: the first, before the codec has read the header.
    assert.ok(counted.handed <= input.length + 64 * 1024, `${framing.method}: ${counted.handed} for ${input.length}`);
  }
});

test('a length-prefixed header split across chunks; an uncounted line trickled in; both read once', () => {
  const little = { method: 'length_delimited', length_field_is_big_endian: false, length_field_offset: 2 } as const;
  const cases: Array<[DecodeFraming, string, string[]]> = [
    [
      { method: 'octet_counting' },
      `11 hello world${'x'.repeat(2000)}\n3 end`,
      ['hello world', 'x'.repeat(2000), 'end'],
    ],
    [little, `ab${String.fromCharCode(5, 0, 0, 0)}hellocd${String.fromCharCode(3, 0, 0, 0)}end`, ['hello', 'end']],
  ];
  for (const [framing, text, expected] of cases) {
    const counted = countingDecoder(framing);
    const { decoder, stamp } = counted;
    const stream = decoder.stream();
    const input = Buffer.from(text, 'latin1');
    assert.equal(messages([...pushChunked(stream, input, 1, stamp), ...stream.end(stamp)]), expected);
    // Byte by byte, the codec sees each header byte (a length's digits until the space) and each frame once.
    assert.ok(counted.handed <= 2 * input.length, `${framing.method}: ${counted.handed} for ${input.length}`);
  }
});

test('octet counting: a counted frame past max_length is dropped and its rest skipped, not kept', () => {
  const counted = countingDecoder({ method: 'octet_counting', max_length: 100 });
  const { decoder, stamp } = counted;
  const stream = decoder.stream();
  const length = 1024 * 1024;
  const input = Buffer.concat([Buffer.from(`${length} `), Buffer.alloc(length, 'x'), Buffer.from('2 ok')]);
  const batches = [...pushChunked(stream, input, 1024, stamp), ...stream.end(stamp)];
  assert.equal(messages(batches), ['ok']);
  assert.ok(counted.handed <= input.length + 1024, `${counted.handed} for ${input.length}`);
});

// A consumer that decodes (a remap fed by the source) gets the frames of octet counting and length prefixes
// undecoded, cut by the codec's framing alone, each batch with the framing state it starts in.
test('frames sent undecoded without a delimiter: decoded by the consumer, the frames decoding here gives', () => {
  const big = 3 * 1024 * 1024;
  const cases: Array<[DecodeFraming, Uint8Array, number]> = [
    [{ method: 'octet_counting' }, Buffer.from(`11 hello world${'x'.repeat(2000)}\n3 end5 three\n`, 'latin1'), 1],
    [
      { method: 'octet_counting' },
      Buffer.concat([Buffer.from(`${big} `), Buffer.alloc(big, 'x'), Buffer.from('4 next')]),
      64 * 1024,
    ],
    [
      { method: 'octet_counting', max_length: 100 },
      Buffer.concat([
        Buffer.from('2 ok'),
        Buffer.from(`${big} `),
        Buffer.alloc(big, 'x'),
        Buffer.from('3 yes7 partial'),
      ]),
      1000,
    ],
    [
      { method: 'length_delimited', max_frame_length: 10 },
      Buffer.concat([
        lengthPrefixed(Buffer.from('one')),
        lengthPrefixed(Buffer.alloc(5000, 'y')),
        lengthPrefixed(Buffer.from('two')),
      ]),
      7,
    ],
  ];
  const codec = new CodecModule();
  for (const [framing, input, size] of cases) {
    const here = countingDecoder(framing);
    const reference = here.decoder.stream();
    const expected = messages([...pushChunked(reference, input, size, here.stamp), ...reference.end(here.stamp)]);
    const env = { ...testEnv('socket'), consumerDecodes: true };
    const decoder = new SourceDecoder(
      env,
      decodeSettings(decodingSchema.parse(undefined), undefined, framing, env, 'legacy'),
    );
    let split = 0;
    const splitting = decoder.split.bind(decoder);
    decoder.split = (bytes, discard) => {
      split += bytes.length;
      return splitting(bytes, discard);
    };
    const stream = decoder.stream();
    const stamp = sourceStamp(env, legacy('socket'));
    const batches = [...pushChunked(stream, input, size, stamp), ...stream.end(stamp)];
    assert.ok(
      batches.every((batch) => batch.frames !== undefined),
      framing.method,
    );
    const decoded = batches.map((batch) => ({ bytes: codec.decode(batch.bytes, batch.frames!).batch }));
    assert.equal(messages(decoded), expected, `${framing.method} in chunks of ${size}`);
    assert.ok(split <= 2 * input.length + size, `${framing.method}: ${split} bytes split for ${input.length}`);
  }
});

test('an unfinished frame is not kept past max_length: it is dropped (or cut) and its rest skipped', () => {
  for (const action of ['drop', 'truncate'] as const) {
    const env = testEnv('socket');
    const framing = { method: 'newline_delimited', max_length: 8, oversized_action: action } as const;
    const decoder = new SourceDecoder(
      env,
      decodeSettings(decodingSchema.parse(undefined), undefined, framing, env, 'legacy'),
    );
    const stream = decoder.stream();
    const stamp = sourceStamp(env, legacy('socket'));
    const out = [...stream.push(Buffer.from('0123'), stamp), ...stream.push(Buffer.from('456789'), stamp)];
    for (let i = 0; i < 1000; i++) out.push(...stream.push(Buffer.from('trickled without end'), stamp));
    out.push(...stream.push(Buffer.from('rest\nok\n'), stamp), ...stream.end(stamp));
    assert.equal(messages(out), action === 'drop' ? ['ok'] : ['01234567', 'ok']);
  }
});

test('batches hold at most chunkSize events; splitBatch and concatBatches keep every record in order', () => {
  const env = testEnv('stdin', { chunkSize: 3 });
  const decoder = new SourceDecoder(
    env,
    decodeSettings(decodingSchema.parse(undefined), undefined, { method: 'newline_delimited' }, env, 'legacy'),
  );
  const batches = decoder.stream().push(Buffer.from('a\nb\nc\nd\ne\nf\ng\n'), {});
  assert.equal(
    batches.map((b) => b.count),
    [3, 3, 1],
  );
  assert.equal(messages(batches), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  const joined = concatBatches(batches);
  assert.is(joined.count, 7);
  assert.equal(messages(splitBatch(joined, 4)), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
});

test('decodeMessages: each message is one frame, in order; empty ones make no event; a bad one is counted', () => {
  const env = testEnv('demo', { chunkSize: 2 });
  const decoder = new SourceDecoder(
    env,
    decodeSettings(decodingSchema.parse({ codec: 'json' }), undefined, { method: 'bytes' }, env, 'legacy'),
  );
  const shared = { source_type: 'demo' };
  const texts = ['{"a":1}', '', '{"a":"two\\nlines"}', 'not json', '{"a":3}'];
  const messages = [
    ...texts.map((text) => ({ bytes: Buffer.from(text), stamp: shared })),
    { bytes: Buffer.from('{"a":4}'), stamp: { source_type: 'other' } },
  ];
  const batches = decoder.decodeMessages(messages);
  assert.equal(
    batches.map((b) => b.count),
    [2, 2],
  );
  assert.equal(
    batches.flatMap((b) => decodeBatch(b.bytes).events.map((e) => e.event)),
    [
      { a: 1n, source_type: 'demo' },
      { a: 'two\nlines', source_type: 'demo' },
      { a: 3n, source_type: 'demo' },
      { a: 4n, source_type: 'other' },
    ],
  );
  assert.is(env.metrics.total('component_errors_total', { error_type: 'parser_failed', stage: 'processing' }), 1);
  assert.is(
    env.metrics.total('component_received_bytes_total'),
    messages.reduce((total, m) => total + m.bytes.byteLength, 0),
  );
});

test('decodeMessages: messages with stamps of their own, in one call, each event with its own (legacy and Vector namespace)', () => {
  for (const logNamespace of ['legacy', 'vector'] as const) {
    const env = testEnv('demo');
    const decoder = new SourceDecoder(
      env,
      decodeSettings(decodingSchema.parse({ codec: 'json' }), undefined, { method: 'bytes' }, env, logNamespace),
    );
    const texts = ['{"a":1}', '{"a":2,"offset":-1}', '', 'not json', '{"a":3}', '{"a":4}'];
    const messages = texts.map((text, i) => ({ bytes: Buffer.from(text), stamp: { offset: i, nested: { at: i } } }));
    const events = decoder.decodeMessages(messages).flatMap((batch) => decodeBatch(batch.bytes).events);
    const expected = [0, 1, 4, 5].map((i) => ({ offset: BigInt(i), nested: { at: BigInt(i) } }));
    if (logNamespace === 'vector') {
      assert.equal(
        events.map((e) => e.event),
        [1n, 2n, 3n, 4n].map((a, i) => (i === 1 ? { a, offset: -1n } : { a })),
      );
      assert.equal(
        events.map((e) => e.metadata),
        expected,
      );
    } else
      assert.equal(
        events.map((e) => e.event),
        // The stamp fills what an event lacks: the second keeps its own offset.
        expected.map((stamp, i) => ({ a: BigInt(i + 1), ...stamp, ...(i === 1 && { offset: -1n }) })),
      );
    assert.is(env.metrics.total('component_errors_total', { error_type: 'parser_failed', stage: 'processing' }), 1);
  }
});

test('frames that fail to decode are counted and logged; the others go on', () => {
  const env = testEnv('stdin');
  const decoder = new SourceDecoder(
    env,
    decodeSettings(decodingSchema.parse({ codec: 'json' }), undefined, { method: 'newline_delimited' }, env, 'legacy'),
  );
  const { batches, errors } = decoder.decodeChecked(Buffer.from('{"a":1}\nnot json\n{"a":2}\n'), {});
  assert.equal(
    batches.flatMap((b) => decodeBatch(b.bytes).events.map((e) => e.event)),
    [{ a: 1n }, { a: 2n }],
  );
  assert.is(errors.length, 1);
  assert.is(env.metrics.total('component_errors_total', { error_type: 'parser_failed', stage: 'processing' }), 1);
  assert.ok(env.logLines.some((line) => line.includes('Failed deserializing frame')));
});

test('framing options take Vector shapes; unknown codecs and methods are errors', () => {
  const framing = framingSchema.parse({ method: 'character_delimited', character_delimited: { delimiter: ',' } });
  const env = testEnv('stdin');
  const settings = decodeSettings(
    decodingSchema.parse({ codec: 'json', json: { lossy: false } }),
    framing,
    { method: 'bytes' },
    env,
    'legacy',
  );
  assert.equal(settings, {
    framing: { method: 'character_delimited', delimiter: ',', oversized_action: 'drop' },
    codec: 'json',
    lossy: false,
    messageKey: '.message',
    logNamespace: 'legacy',
  });
  assert.not.ok(decodingSchema.safeParse({ codec: 'avro' }).success);
  assert.not.ok(framingSchema.safeParse({ method: 'chunked_gelf' }).success);
  assert.not.ok(
    framingSchema.safeParse({ method: 'character_delimited', character_delimited: { delimiter: 'ab' } }).success,
  );
});

test('the stamp puts source type, time and host at log_schema paths; an empty host key leaves the host out', () => {
  const env = testEnv('stdin');
  const stamp = sourceStamp(env, legacy('stdin'));
  assert.is(stamp.source_type, 'stdin');
  assert.is(stamp.host, 'test-host');
  assert.ok(stamp.timestamp instanceof Date);
  assert.not.ok('host' in sourceStamp(env, legacy('stdin'), ''));
  assert.equal(sourceStamp(env, legacy('stdin'), '.a.b').a, { b: 'test-host' });
});

test('the Vector namespace stamp is metadata: %vector.source_type, %vector.ingest_timestamp, %<source type>.host (any host_key)', () => {
  const env = testEnv('stdin');
  const origin = { sourceType: 'stdin', logNamespace: 'vector' } as const;
  const stamp = sourceStamp(env, origin, '');
  assert.equal(Object.keys(stamp).sort(), ['stdin', 'vector']);
  assert.is((stamp.vector as Stamp).source_type, 'stdin');
  assert.ok((stamp.vector as Stamp).ingest_timestamp instanceof Date);
  assert.equal(stamp.stdin, { host: 'test-host' });
  assert.equal(stampSource(stamp, origin, 'offset', ['offset'], 7).stdin, { host: 'test-host', offset: 7 });
  assert.equal(stampSource({}, legacy('file'), '.at.offset', ['offset'], 7), { at: { offset: 7 } });
  assert.equal(stampSource({}, legacy('file'), undefined, ['offset'], 7), {});
});

test('a source takes its own log_namespace over the global schema.log_namespace', () => {
  const env = testEnv('stdin');
  assert.is(logNamespaceOf(env, undefined), 'legacy');
  assert.is(logNamespaceOf(env, true), 'vector');
  const namespaced = { ...env, globals: { ...env.globals, schema: { log_namespace: true } } };
  assert.is(logNamespaceOf(namespaced, undefined), 'vector');
  assert.is(logNamespaceOf(namespaced, false), 'legacy');
});

test.run();

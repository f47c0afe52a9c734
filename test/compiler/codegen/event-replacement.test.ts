// What a program reads of the event before its first expression replaces it: the stamp fields outside that
// list are never seen, and a framed run leaves them out (runtime/module.test.ts checks the outputs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from '../../../compiler/parse/index.js';
import { fieldsReadBeforeReplacingEvent } from '../../../compiler/codegen/event-replacement.js';

const reads = (source: string) => fieldsReadBeforeReplacingEvent(parse(source).program!);

test('the fields read before the event is replaced, or undefined when it is not replaced first or is read whole', () => {
  assert.equal(reads('. = object!(parse_json!(.message))\n.env = "prod"\n.host'), ['message']);
  assert.equal(reads('. = merge(object!(parse_json!(.message)), { "h": .host, "o": .(a | b).c })'), [
    'a',
    'b',
    'host',
    'message',
  ]);
  assert.equal(reads('. = map_values(object!(.m)) -> |v| { .x }'), ['m', 'x']);
  assert.equal(reads('. = { "a": 1 }'), []);
  assert.equal(reads('. = { .z = 1; { "a": 1 } }'), []);
  for (const source of [
    '. = merge(., { "a": 1 })',
    '.a = 1\n. = {}',
    '.x = object!(parse_json!(.message))',
    '., err = parse_json(.message)',
    '. |= { "a": .b }',
    '%m = 1',
  ]) {
    assert.is(reads(source), undefined, source);
  }
});

test.run();

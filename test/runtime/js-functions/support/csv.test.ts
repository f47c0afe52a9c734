// The CSV reader parse_csv and the file enrichment table share, on the csv crate's cases (answers checked
// against the reference engine, VRL 0.25, for parse_csv's first record).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { csvRecords } from '../../../../runtime/js-functions/support/csv.js';
import { parse_csv } from '../../../../runtime/js-functions/parse_csv.js';
import { jsContext } from '../../../support/js-context.js';

const records = (text: string, delimiter = ',') => [...csvRecords(text, delimiter)];

test('quoted fields hold delimiters, line breaks and "" for a quote; text after a closing quote joins the field', () => {
  assert.equal(records('"a,b","x\ny","say ""hi""","q"z\n'), [{ fields: ['a,b', 'x\ny', 'say "hi"', 'qz'], line: 1 }]);
});

test('a quote inside an unquoted field is kept; \\n, \\r and \\r\\n end records; empty lines are none', () => {
  assert.equal(records('\n\na"b,c\r\nd\re\n\nf;g', ','), [
    { fields: ['a"b', 'c'], line: 3 },
    { fields: ['d'], line: 4 },
    { fields: ['e'], line: 5 },
    { fields: ['f;g'], line: 7 },
  ]);
  assert.equal(records('f;g', ';'), [{ fields: ['f', 'g'], line: 1 }]);
  assert.equal(records('a,\n'), [{ fields: ['a', ''], line: 1 }]);
  assert.equal(records('\r\n\n'), []);
});

test('parse_csv is the first record, as VRL gives it', () => {
  const parse = (text: string) => parse_csv([text, null], jsContext());
  assert.equal(parse('a"b,c'), ['a"b', 'c']);
  assert.equal(parse('"a"b,c'), ['ab', 'c']);
  assert.equal(parse('x\ry'), ['x']);
  assert.equal(parse('\n\na,b\nc'), ['a', 'b']);
  assert.equal(parse(''), []);
});

test.run();

// The bounds on GraphQL documents (host/api/limits.ts) as every protocol applies them (prepareOperation):
// what passes them is refused with a GraphQLError saying which bound and by how much, before graphql-js
// validates or runs it; Vector's own documents and GraphiQL's introspection query stay within them.

import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { getIntrospectionQuery, type GraphQLError } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_DEPTH, MAX_FIELDS, MAX_TOKENS } from '../../../host/api/limits.js';
import { prepareOperation } from '../../../host/api/operation.js';
import { apiSchema } from '../../../host/api/server.js';
import { vectorDocument } from '../../../cli/vector-documents.js';
import { testContext } from './resolvers/context.js';
import { doublingFragments, nested } from './support.js';

const schema = apiSchema();

function errorsOf(query: string): readonly GraphQLError[] {
  const prepared = prepareOperation(schema, { query }, testContext([]));
  return 'errors' in prepared ? prepared.errors : [];
}

test('fragments doubling at each level are refused by the count of fields they expand to', () => {
  const query = doublingFragments();
  assert.ok(query.length <= 2048, `${query.length} bytes`);
  const errors = errorsOf(query);
  assert.is(errors.length, 1);
  assert.is(
    errors[0]!.message,
    `query selects too many fields: ${2 ** 20} once its fragments are expanded, the limit is ${MAX_FIELDS}`,
  );
});

test('a query nested 1000 deep is refused with its depth, as a message that survives JSON', () => {
  const errors = errorsOf(nested(1000));
  assert.is(errors.length, 1);
  assert.is(errors[0]!.message, `query is nested too deeply: depth 1000, the limit is ${MAX_DEPTH}`);
  assert.match(JSON.stringify(errors[0]), /nested too deeply/);
});

test('what parsing throws besides GraphQL errors (a stack exhausted) is refused with its message', async () => {
  // A thread with a small stack, where parsing the deepest document the token limit lets through overflows.
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    Promise.all([import(workerData.operation), import(workerData.server)]).then(([operation, server]) => {
      const prepared = operation.prepareOperation(server.apiSchema(), { query: workerData.query }, {});
      parentPort.postMessage(JSON.stringify(prepared.errors));
    });`,
    {
      eval: true,
      resourceLimits: { stackSizeMb: 0.4 },
      workerData: {
        operation: new URL('../../../host/api/operation.js', import.meta.url).href,
        server: new URL('../../../host/api/server.js', import.meta.url).href,
        query: nested(Math.floor(MAX_TOKENS / 3)),
      },
    },
  );
  const [errors] = (await once(worker, 'message')) as [string];
  await worker.terminate();
  assert.equal(JSON.parse(errors), [{ message: 'the query cannot be processed: Maximum call stack size exceeded' }]);
});

test('depth counts fields through fragment spreads and inline fragments', () => {
  // 3 levels of fields in the operation, one through an inline fragment, then the fragment's own depth.
  const within = (levels: number) =>
    `query { a { ... on A { b { ...F } } } }\nfragment F on B { ${'c { '.repeat(levels - 1)}d${' }'.repeat(levels - 1)} }`;
  assert.not.match(errorsOf(within(MAX_DEPTH - 2))[0]?.message ?? '', /nested too deeply/);
  assert.is(
    errorsOf(within(MAX_DEPTH - 1))[0]?.message,
    `query is nested too deeply: depth ${MAX_DEPTH + 1}, the limit is ${MAX_DEPTH}`,
  );
});

test('a document of more tokens than the limit is refused while parsing', () => {
  const query = `{ ${Array.from({ length: MAX_TOKENS }, (_, i) => `a${i}: health`).join(' ')} }`;
  const errors = errorsOf(query);
  assert.is(errors.length, 1);
  assert.match(errors[0]!.message, `more that ${MAX_TOKENS} tokens`);
});

test('fragments that spread one another are left to validation, which names the cycle', () => {
  const errors = errorsOf('query { ...A }\nfragment A on Query { ...B }\nfragment B on Query { health ...A }');
  assert.ok(errors.length > 0);
  assert.match(errors[0]!.message, /Cannot spread fragment "A" within itself/);
});

test("Vector's own documents and GraphiQL's introspection query are within the limits", () => {
  const documents = ['queries', 'subscriptions'].flatMap((folder) =>
    readdirSync(new URL(`../../../../cli/vector-documents/${folder}/`, import.meta.url)).map(
      (file) => `${folder}/${file}`,
    ),
  );
  assert.ok(documents.length > 10);
  const limit = /nested too deeply|too many fields|tokens/;
  for (const name of documents)
    for (const error of errorsOf(vectorDocument(name))) assert.not.match(error.message, limit, name);
  assert.equal(errorsOf(getIntrospectionQuery()), []);
});

test.run();

// The API's schema run directly (graphql-js, no server) on a hand-made context: a topology the test can
// change and a metrics registry it fills.

import { EventEmitter } from 'node:events';
import { graphql, parse, subscribe, type ExecutionResult } from 'graphql';
import type { ApiComponent, ApiContext, ComponentChange } from '../../../../host/api/context.js';
import { apiSchema } from '../../../../host/api/server.js';
import { MetricsRegistry } from '../../../../host/telemetry/metrics.js';
import { TapHub } from '../../../../host/topology/tap.js';

export interface TestContext extends ApiContext {
  /** The topology `components()` returns; change it, then emit on `componentChanges`. */
  topology: ApiComponent[];
  metrics: MetricsRegistry;
}

export function component(fields: Partial<ApiComponent> & Pick<ApiComponent, 'id' | 'kind' | 'type'>): ApiComponent {
  return {
    outputs: [],
    defaultOutput: fields.kind !== 'sink',
    outputTypes: fields.kind === 'sink' ? [] : ['log'],
    inputs: [],
    ...fields,
  };
}

export function testContext(topology: ApiComponent[]): TestContext {
  return {
    version: '0.1.0',
    hostname: 'test',
    startedAt: Date.now(),
    topology,
    components() {
      return this.topology;
    },
    metrics: new MetricsRegistry(),
    componentChanges: new EventEmitter<{ change: [ComponentChange] }>(),
    // Taps are tested against a live instance (test/host/api/tap.test.ts).
    tap: new TapHub(
      { components: new Map(), ports: new Map(), edges: [], order: [], warnings: [] },
      { timezone: 'UTC', messageKey: '.message', timestampKey: '.timestamp' },
    ),
    running: () => true,
  };
}

const schema = apiSchema();

/** A result as a client reads it (graphql-js builds objects without prototype, which deep equality tells apart). */
function asJson(result: ExecutionResult): ExecutionResult<any> {
  return JSON.parse(JSON.stringify(result));
}

export async function run(
  context: ApiContext,
  query: string,
  variableValues?: Record<string, unknown>,
): Promise<ExecutionResult<any>> {
  return asJson(await graphql({ schema, source: query, contextValue: context, variableValues }));
}

/** A subscription's results one by one; `close()` ends it. Rejects with the errors when it cannot start. */
export async function subscription(context: ApiContext, query: string, variableValues?: Record<string, unknown>) {
  const result = await subscribe({ schema, document: parse(query), contextValue: context, variableValues });
  if (!(Symbol.asyncIterator in result)) throw new Error(result.errors!.map((error) => error.message).join('; '));
  return {
    async next(): Promise<ExecutionResult<any>> {
      const { value, done } = await result.next();
      if (done) throw new Error('the subscription ended');
      return asJson(value);
    },
    async close(): Promise<void> {
      await result.return?.();
    },
  };
}

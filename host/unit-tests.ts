// `svc test`: Vector's configuration unit tests (`tests:`). Each test feeds its inputs into transforms
// (`insert_at`), runs the configured transforms inline in topological order — sources and sinks take no
// part — and checks what the `extract_from` outputs emitted: every condition of a check must hold for at
// least one of those events, and `no_outputs_from` targets must emit nothing.

import { encodeBatch } from '../abi/batch.js';
import { CodecModule, parseFieldPath } from '../runtime/engine.js';
import { Timestamp } from '../abi/values.js';
import type { ComponentEnv, TransformDefinition, TransformResult } from './components/component.js';
import { Condition, conditionSchema, isSet, prepareCondition } from './components/support/condition.js';
import { compileProgram, instantiateProgram, RemapLogs } from './components/support/remap-program.js';
import { transformDefinition } from './components/registry.js';
import { ConfigError } from './config/errors.js';
import type { Config, TestDefinition } from './config/schema.js';
import type { LogHub, Logger } from './log.js';
import { componentSpecs, hostName, pipelineGraph } from './pipeline.js';
import { ComponentTelemetry } from './telemetry/component.js';
import { MetricsRegistry } from './telemetry/metrics.js';
import type { EventBatch } from './topology/batch.js';
import { InlineExecutor } from './topology/executor.js';
import { outputId, type Graph } from './topology/graph.js';

export interface UnitTestEnv {
  log: Logger;
  logHub: LogHub;
  chunkSize: number;
  maxDecompressedSize: number;
}

/** A test ready to run: its input batches by target, its checks with compiled conditions. */
interface PreparedTest {
  name: string;
  inputs: Array<{ target: string; batch: EventBatch }>;
  /** Checks grouped by their `extract_from` targets, as Vector groups them into one test sink. */
  checks: Array<{ targets: string[]; conditions: Condition[][] }>;
  noOutputsFrom: string[];
  /** Remap `log()` calls of the test's conditions, logged after its checks. */
  logs: RemapLogs;
}

export interface TestResult {
  name: string;
  /** Empty when the test passed. */
  errors: string[];
}

/** Rust's Debug form of a list of ids, as Vector's messages show them: `["a", "b"]`. */
const idList = (ids: readonly string[]) => `[${ids.map((id) => JSON.stringify(id)).join(', ')}]`;

/** The configured unit tests, built against the configuration's transforms; run them with `run`. */
export class UnitTests {
  private constructor(
    private readonly tests: PreparedTest[],
    private readonly graph: Graph,
    private readonly plans: Map<string, unknown>,
    private readonly env: UnitTestEnv,
  ) {}

  get count(): number {
    return this.tests.length;
  }

  /** Prepares every transform and test; throws ConfigError naming each test that cannot be built. */
  static async build(config: Config, env: UnitTestEnv): Promise<UnitTests> {
    if (config.tests.length === 0)
      return new UnitTests(
        [],
        { components: new Map(), ports: new Map(), edges: [], order: [], warnings: [] },
        new Map(),
        env,
      );
    const graph = pipelineGraph(
      config,
      componentSpecs(config).filter((spec) => spec.kind !== 'sink'),
    );
    const metrics = new MetricsRegistry();
    const componentEnv = (id: string): ComponentEnv => ({
      globals: config.global,
      chunkSize: env.chunkSize,
      maxDecompressedSize: env.maxDecompressedSize,
      hostname: hostName(),
      metrics,
      logHub: env.logHub,
      id,
      log: env.log.child('svc::transforms', { component_id: id }),
      telemetry: new ComponentTelemetry(metrics, id, 'transform', graph.components.get(id)?.type ?? 'unit_test'),
    });

    const plans = new Map<string, unknown>();
    const errors: string[] = [];
    for (const id of graph.order) {
      const spec = graph.components.get(id)!;
      try {
        plans.set(id, await (spec.definition as TransformDefinition).prepare(spec.options, componentEnv(id)));
      } catch (error) {
        errors.push(`transform "${id}": ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (errors.length > 0) throw new ConfigError(errors);

    const codec = new CodecModule({ timezone: config.global.timezone });
    const tests: PreparedTest[] = [];
    for (const test of config.tests) {
      const problems: string[] = [];
      const prepared = await prepareTest(test, graph, config, codec, componentEnv(`test ${test.name}`), problems);
      if (problems.length > 0)
        errors.push(
          `Failed to build test "${test.name}":\n${problems.map((p) => `  ${p.replaceAll('\n', '\n  ')}`).join('\n')}`,
        );
      else tests.push(prepared);
    }
    if (errors.length > 0) throw new ConfigError(errors);
    return new UnitTests(tests, graph, plans, env);
  }

  /** Runs every test in order, each with fresh transform state. */
  async *run(): AsyncGenerator<TestResult> {
    const codec = new CodecModule();
    for (const test of this.tests) yield { name: test.name, errors: await this.runOne(test, codec) };
  }

  private async runOne(test: PreparedTest, codec: CodecModule): Promise<string[]> {
    const emitted = await this.propagate(test);
    const errors: string[] = [];
    for (const { targets, conditions } of test.checks) {
      const batches = targets.flatMap((target) => emitted.get(target) ?? []);
      if (batches.every((batch) => batch.count === 0)) {
        errors.push(`checks for transforms ${idList(targets)} failed: no events received.`);
        continue;
      }
      const checkErrors = conditions.flatMap((check, i) => failedConditions(check, batches, i, targets));
      if (checkErrors.length > 0) {
        const payloads = batches.flatMap((batch) => eventsAsJson(codec, batch));
        errors.push(
          ...checkErrors,
          `output payloads from ${idList(targets)} (events encoded as JSON):\n  ${payloads.join('\n  ')}`,
        );
      }
    }
    for (const target of test.noOutputsFrom) {
      if ((emitted.get(target) ?? []).some((batch) => batch.count > 0)) {
        errors.push(`check for transforms ${idList([target])} failed: expected no outputs`);
      }
    }
    for (const { level, message, position: vrl_position } of test.logs.take() ?? [])
      this.env.log[level](message, { vrl_position, internal_log_rate_limit: false });
    return errors;
  }

  /** Feeds the inputs and runs every transform once, in topological order; returns what each output emitted. */
  private async propagate(test: PreparedTest): Promise<Map<string, EventBatch[]>> {
    const executor = new InlineExecutor(transformDefinition);
    const inbox = new Map<string, EventBatch[]>();
    const emitted = new Map<string, EventBatch[]>();
    const deliver = (id: string, batch: EventBatch) => inbox.set(id, [...(inbox.get(id) ?? []), batch]);
    for (const { target, batch } of test.inputs) deliver(target, batch);
    for (const id of this.graph.order) {
      const batches = inbox.get(id);
      if (!batches) continue;
      const spec = this.graph.components.get(id)!;
      await executor.create(id, spec.type, structuredClone(this.plans.get(id)));
      const collect = (result: TransformResult) => {
        for (const { message } of result.errors ?? []) this.env.log.error(message, { component_id: id });
        for (const { level, message, position: vrl_position } of result.logs ?? [])
          this.env.log[level](message, { component_id: id, vrl_position, internal_log_rate_limit: false });
        for (const { output, batch: out } of result.outputs) {
          const key = outputId(id, output);
          emitted.set(key, [...(emitted.get(key) ?? []), out]);
          for (const edge of this.graph.edges) {
            if (edge.from === id && edge.output === output && this.graph.components.get(edge.to)?.kind === 'transform')
              deliver(edge.to, out);
          }
        }
      };
      for (const batch of batches) collect(await executor.process(id, batch));
      // The inputs end after the last batch: a transform that keeps events (reduce) emits them all, as in Vector.
      collect(await executor.flush(id, true));
    }
    await executor.close();
    return emitted;
  }
}

/** `  condition[j]: why` for every event, for each condition no event satisfies; with the check's heading. */
function failedConditions(check: Condition[], batches: EventBatch[], index: number, targets: string[]): string[] {
  const failures: string[] = [];
  check.forEach((condition, j) => {
    const reasons: string[] = [];
    for (const batch of batches) {
      if (batch.count === 0) continue;
      const { bits, failures: failed } = condition.evaluate(batch.bytes);
      for (let event = 0; event < batch.count; event++) {
        if (isSet(bits, event)) return;
        const failure = failed.find((f) => f.index === event);
        const why =
          failure === undefined
            ? 'source execution resolved to false'
            : `source execution ${failure.outcome === 'aborted' ? 'aborted' : 'failed'}: ${failure.message}`;
        reasons.push(`  condition[${j}]: ${why}`);
      }
    }
    failures.push(...reasons);
  });
  return failures.length > 0
    ? [`check[${index}] for transforms ${idList(targets)} failed conditions:`, ...failures]
    : [];
}

/** Vector's JSON of each event of a batch. */
function eventsAsJson(codec: CodecModule, batch: EventBatch): string[] {
  const { bytes } = codec.encode(batch.bytes, { codec: 'json', framing: { method: 'newline_delimited' } });
  return Buffer.from(bytes)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** Checks a test against the graph and turns its inputs into batches and its conditions into programs. */
async function prepareTest(
  test: TestDefinition,
  graph: Graph,
  config: Config,
  codec: CodecModule,
  env: ComponentEnv,
  problems: string[],
): Promise<PreparedTest> {
  const isTransform = (id: string) => graph.components.get(id)?.kind === 'transform';
  /** `<id>` or `<id>.<port>` of a transform output. */
  const isTransformOutput = (target: string) =>
    [...graph.ports].some(([id, ports]) => isTransform(id) && ports.some((port) => outputId(id, port.name) === target));

  if (test.inputs.length === 0) problems.push('at least one input is required');
  if (test.outputs.length === 0 && test.no_outputs_from.length === 0) {
    problems.push('at least one of "outputs" or "no_outputs_from" is required');
  }
  const logs = new RemapLogs();
  const inputs: PreparedTest['inputs'] = [];
  for (const [i, input] of test.inputs.entries()) {
    if (!isTransform(input.insert_at)) {
      problems.push(`inputs[${i}]: unable to locate target transform "${input.insert_at}"`);
      continue;
    }
    try {
      inputs.push({ target: input.insert_at, batch: await inputBatch(input, config, codec, env, logs) });
    } catch (error) {
      problems.push(`inputs[${i}]: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const groups = new Map<string, PreparedTest['checks'][number]>();
  for (const [i, output] of test.outputs.entries()) {
    const targets = typeof output.extract_from === 'string' ? [output.extract_from] : output.extract_from;
    const unknown = targets.filter((target) => !isTransformOutput(target));
    for (const target of unknown)
      problems.push(`outputs[${i}]: invalid extract_from target "${target}": no transform output has this id`);
    const conditions: Condition[] = [];
    for (const [j, condition] of output.conditions.entries()) {
      const source = typeof condition === 'string' ? condition : condition.source;
      try {
        const plan = await prepareCondition(
          conditionSchema.parse({ type: 'vrl', source }),
          env,
          `outputs[${i}].conditions[${j}]`,
        );
        conditions.push(await Condition.create(plan, logs));
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
    const key = JSON.stringify(targets);
    const group = groups.get(key) ?? { targets, conditions: [] };
    group.conditions.push(conditions);
    groups.set(key, group);
  }
  for (const target of test.no_outputs_from) {
    if (!isTransformOutput(target))
      problems.push(`invalid no_outputs_from target "${target}": no transform output has this id`);
  }
  return { name: test.name, inputs, checks: [...groups.values()], noOutputsFrom: test.no_outputs_from, logs };
}

type TestInput = TestDefinition['inputs'][number];

/** Requires the field an input type reads, as Vector does. */
function field<T>(input: TestInput, name: 'value' | 'log_fields' | 'metric' | 'source'): T {
  const value = input[name];
  if (value === undefined) throw new Error(`input type "${input.type}" requires the field "${name}"`);
  return value as T;
}

/** One input as a batch: `raw` (a message), `log` (fields by path), `metric` (Vector's metric), `vrl` (a program's event). */
async function inputBatch(
  input: TestInput,
  config: Config,
  codec: CodecModule,
  env: ComponentEnv,
  logs: RemapLogs,
): Promise<EventBatch> {
  const schema = config.global.log_schema;
  const logEvent = (message: string) => {
    const event: Record<string, unknown> = {};
    setPath(event, schema.message_key, message);
    setPath(event, schema.timestamp_key, Timestamp.fromDate(new Date()));
    return event;
  };
  switch (input.type) {
    case 'raw':
      return { bytes: encodeBatch([{ event: logEvent(field<string>(input, 'value')) }], 0), count: 1 };
    case 'log': {
      const event = logEvent('');
      for (const [path, value] of Object.entries(field<Record<string, unknown>>(input, 'log_fields')))
        setPath(event, path, remapValue(value));
      return { bytes: encodeBatch([{ event }], 0), count: 1 };
    }
    case 'metric': {
      const text = Buffer.from(JSON.stringify({ metric: field<Record<string, unknown>>(input, 'metric') }));
      const decoded = codec.decode(text, { framing: { method: 'bytes' }, codec: 'native_json', eof: true });
      if (decoded.errors.length > 0) throw new Error(`invalid metric: ${decoded.errors[0]!.message}`);
      return { bytes: decoded.batch, count: decoded.count };
    }
    case 'vrl': {
      const module = await compileProgram(
        field<string>(input, 'source'),
        { timezone: config.global.timezone },
        env,
        'source',
      );
      const { output, count, failures } = (await instantiateProgram(module, logs, env)).runChain(
        encodeBatch([{ event: {} }], 0),
      );
      if (failures.length > 0) throw new Error(`source: ${failures[0]!.message}`);
      return { bytes: output, count };
    }
  }
}

/** Sets a field path (`a.b[0]`, `.message`) in an event object, creating objects and arrays on the way. */
function setPath(event: Record<string, unknown>, path: string, value: unknown): void {
  const segments = parseFieldPath(path);
  if (segments.length === 0) return;
  let target: Record<string | number, unknown> = event;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      target[segment] = value;
      return;
    }
    const next = segments[i + 1];
    const existing = target[segment];
    if (typeof existing !== 'object' || existing === null) target[segment] = typeof next === 'number' ? [] : {};
    target = target[segment] as Record<string | number, unknown>;
  });
}

/** A configuration value as a remap value: whole numbers are integers, datetimes timestamps. */
function remapValue(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (value instanceof Date) return Timestamp.fromDate(value);
  if (Array.isArray(value)) return value.map(remapValue);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapValue(v)]));
  return value;
}

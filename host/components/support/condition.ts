// Vector's conditions (`filter.condition`, `route.*`, `exclude` of throttle and sample): a remap program
// whose result must be a boolean (a plain string is its shorthand), a search query, or an event-kind test. A
// remap condition (a query is one: `match_ext_query(., query)`) runs over a whole batch in wasm and answers a
// bitmap; kind tests read each record's kind byte.

import { z } from 'zod';
import { BatchReader, type EncodeOptions, type FramedOutput } from '../../../runtime/engine.js';
import { ChainFlag, type ChainFailure } from '../../../abi/batch.js';
import type { EventBatch, EventKind } from '../../topology/batch.js';
import type { ComponentEnv, TransformResult } from '../component.js';
import type { RemapInstance } from '../../../runtime/index.js';
import { remapString } from '../../config/template.js';
import { compileProgram, failureErrors, instantiateProgram, type RemapLogs } from './remap-program.js';

/** Condition types that test the event's kind. */
const KIND_TESTS: Record<string, EventKind> = { is_log: 'log', is_metric: 'metric', is_trace: 'trace' };

const conditionObject = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('vrl'), source: z.string() }),
  z.strictObject({ type: z.literal('is_log') }),
  z.strictObject({ type: z.literal('is_metric') }),
  z.strictObject({ type: z.literal('is_trace') }),
  z.strictObject({ type: z.enum(['datadog_search', 'extsearch']), source: z.string() }),
]);

/** A condition option: `{type, source}`, `{type: is_log}`..., or a remap expression as a plain string. */
export const conditionSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { type: 'vrl', source: value } : value),
  conditionObject,
);

export type ConditionConfig = z.output<typeof conditionSchema>;

/** A prepared condition: plain data and a `WebAssembly.Module`, so it crosses to a worker. */
export type ConditionPlan =
  | { test: 'vrl'; module: WebAssembly.Module; maxDecompressedSize: number }
  | { test: 'kind'; kind: EventKind };

/** Whether a condition is a remap program or query (not a kind test): one that can also run on frames. */
export const isProgram = (config: ConditionConfig): config is Extract<ConditionConfig, { source: string }> =>
  !(config.type in KIND_TESTS);

/**
 * Compiles a condition; `what` names it in errors (e.g. `route "errors"`). `framed`: a remap condition may
 * also run on frames (`Condition.runFramed`).
 */
export async function prepareCondition(
  config: ConditionConfig,
  env: ComponentEnv,
  what: string,
  framed = false,
): Promise<ConditionPlan> {
  if (!isProgram(config)) return { test: 'kind', kind: KIND_TESTS[config.type]! };
  const source = config.type === 'vrl' ? config.source : `match_ext_query(., ${remapString(config.source)})`;
  const options = { timezone: env.globals.timezone, condition: true, framed };
  const module = await compileProgram(source, options, env, what);
  return { test: 'vrl', module, maxDecompressedSize: env.maxDecompressedSize };
}

export interface ConditionOutput {
  /** Bit `i` (LSB first in byte `i >> 3`) is set when record `i` matches. */
  bits: Uint8Array;
  /** Records whose remap condition failed (they do not match). */
  failures: ChainFailure[];
}

/** A condition ready to run, in the thread that runs the transform. */
export class Condition {
  private constructor(
    private readonly plan: ConditionPlan,
    private readonly instance: RemapInstance | undefined,
  ) {}

  static async create(plan: ConditionPlan, logs: RemapLogs): Promise<Condition> {
    return new Condition(plan, plan.test === 'vrl' ? await instantiateProgram(plan.module, logs, plan) : undefined);
  }

  /**
   * The events of a source's frames the condition holds for, encoded for `encode`'s sink when given (a remap
   * condition prepared `framed`; the topology sends frames to no other).
   */
  runFramed(batch: EventBatch, encode: EncodeOptions | undefined): FramedOutput {
    if (!this.instance?.framed || !batch.frames) throw new Error('internal: this condition does not run on frames');
    return this.instance.runFramed(batch.bytes, batch.frames, encode, ChainFlag.CONDITION);
  }

  /** Evaluates the condition on every record of an input batch. */
  evaluate(batch: Uint8Array): ConditionOutput {
    if (this.instance) return this.instance.runCondition(batch);
    const { kind } = this.plan as { kind: EventKind };
    const reader = new BatchReader(batch);
    const bits = new Uint8Array((reader.count + 7) >> 3);
    for (const record of reader) if (record.kind === kind) bits[record.index >> 3]! |= 1 << (record.index & 7);
    return { bits, failures: [] };
  }
}

/** Whether record `index` is set in a condition bitmap. */
export function isSet(bits: Uint8Array, index: number): boolean {
  return (bits[index >> 3]! & (1 << (index & 7))) !== 0;
}

/** Failed conditions as Vector reports them: `script_failed` errors; the event counts as not matching. */
export function conditionErrors(failures: readonly ChainFailure[]): NonNullable<TransformResult['errors']> {
  return failureErrors(failures, 'script_failed', (message) => `VRL condition execution failed: ${message}`);
}

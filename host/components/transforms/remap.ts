// `remap`: runs a remap program on every event in chain mode (the module's output is the next input
// batch). A failed event is forwarded unchanged, dropped (`drop_on_error`, `drop_on_abort`), or with
// `reroute_dropped` sent unchanged to the `dropped` output, annotated as Vector annotates it. A metric is
// seen as Vector's VRL view of it and stays one metric (docs/abi.md §2.3). An event whose program needs
// more memory than `max_memory_bytes`, or traps, fails with a runtime error like any other; the instance
// starts afresh for the next one.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { BatchReader, BatchWriter, withField } from '../../../runtime/batch-io.js';
import { ChainFlag, type ChainFailure } from '../../../abi/batch.js';
import { DEFAULT_MEMORY_LIMIT, MAX_MEMORY_LIMIT, MIN_MEMORY_LIMIT } from '../../../runtime/module.js';
import { CodecModule } from '../../../runtime/codec-module.js';
import { encode } from '../../../abi/codec.js';
import { parseFieldPath } from '../../config/template.js';
import type { EventKind } from '../../topology/batch.js';
import type { ComponentEnv, TransformDefinition, TransformResult } from '../component.js';
import { compileProgram, failureErrors, instantiateProgram, loadPrecompiledModule, RemapLogs } from '../support/remap-program.js';

const DROPPED = 'dropped';
const ALL_KINDS: EventKind[] = ['log', 'metric', 'trace'];

const options = z
  .strictObject({
    source: z.string().optional(),
    file: z.string().optional(),
    files: z.array(z.string()).optional(),
    module: z.string().optional(),
    drop_on_error: z.boolean().default(false),
    drop_on_abort: z.boolean().default(true),
    reroute_dropped: z.boolean().default(false),
    timezone: z.string().optional(),
    metric_tag_values: z.enum(['single', 'full', 'auto']).default('single'),
    max_memory_bytes: z.number().int().min(MIN_MEMORY_LIMIT).max(MAX_MEMORY_LIMIT).default(DEFAULT_MEMORY_LIMIT),
  })
  .superRefine((config, context) => {
    const given = (['source', 'file', 'files', 'module'] as const).filter((key) => config[key] !== undefined);
    if (given.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `exactly one of \`source\`, \`file\`, \`files\` or \`module\` must be set${given.length > 1 ? ` (got ${given.map((key) => `\`${key}\``).join(' and ')})` : ''}`,
      });
    }
    if (config.metric_tag_values !== 'single') {
      context.addIssue({
        code: 'custom',
        path: ['metric_tag_values'],
        message: `"${config.metric_tag_values}" is not supported: remap sees each metric tag as a single string ("single")`,
      });
    }
  });

type RemapOptions = z.output<typeof options>;

interface RemapPlan {
  module: WebAssembly.Module;
  /** The zone the program's time functions use: the `timezone` option, else the global one. */
  timezone: string;
  /** `ChainFlag`s: which failed events are forwarded unchanged. */
  keep: number;
  dropOnError: boolean;
  dropOnAbort: boolean;
  rerouteDropped: boolean;
  componentId: string;
  /** `max_memory_bytes`: the most the instance's memory may hold. */
  memoryLimit: number;
  /** `--max-decompressed-size-bytes`: the most the program's decompression functions may produce. */
  maxDecompressedSize: number;
  /** Where a rerouted event's annotation goes (`log_schema.metadata_key`); none when it is empty. */
  annotation: { metadata: boolean; fields: string[]; tagPrefix: string } | undefined;
}

const remap: TransformDefinition<RemapOptions, RemapPlan> = {
  kind: 'transform',
  type: 'remap',
  concurrent: true,
  description:
    'Modifies events with a remap program. Besides Vector\'s `source`, `file` and `files`, the program may be a ' +
    'module precompiled by `svc vrl --emit-wasm` (`module`: its path; refused unless this svc can run it).',
  options,
  inputs: () => ALL_KINDS,
  outputs: (config) => [{ name: undefined, kinds: ALL_KINDS }, ...(config.reroute_dropped ? [{ name: DROPPED, kinds: ALL_KINDS }] : [])],
  async prepare(config, env) {
    const timezone = config.timezone ?? env.globals.timezone;
    return {
      module: config.module === undefined ? await compiledProgram(config, timezone, env) : await loadPrecompiledModule(config.module),
      timezone,
      keep: (config.drop_on_error ? 0 : ChainFlag.KEEP_ON_ERROR) | (config.drop_on_abort ? 0 : ChainFlag.KEEP_ON_ABORT),
      dropOnError: config.drop_on_error,
      dropOnAbort: config.drop_on_abort,
      rerouteDropped: config.reroute_dropped,
      componentId: env.id,
      memoryLimit: config.max_memory_bytes,
      maxDecompressedSize: env.maxDecompressedSize,
      annotation: annotationPath(env.globals.log_schema.metadata_key),
    };
  },
  async create(plan) {
    const logs = new RemapLogs();
    const instance = await instantiateProgram(plan.module, logs, plan);
    const annotate = annotator(plan);
    // Decodes frames for a module without `run_framed` (one precompiled by `svc vrl --emit-wasm`).
    let codec: CodecModule | undefined;
    return {
      process(batch, encode) {
        let decoded: TransformResult['decoded'];
        let encodeFailures: TransformResult['encodeFailures'];
        let run: { output: Uint8Array; count: number; failures: ChainFailure[] };
        let input = batch;
        if (batch.frames && instance.framed) {
          const framed = instance.runFramed(batch.bytes, batch.frames, encode, plan.keep | (plan.rerouteDropped ? ChainFlag.FAILED_RECORDS : 0));
          run = framed;
          decoded = { count: framed.decoded, errors: framed.decodeErrors.map((error) => error.message) };
          if (framed.encodeErrors.length > 0) encodeFailures = { count: framed.encodeErrors.length, message: framed.encodeErrors[0]!.message };
        } else {
          if (batch.frames) {
            const result = (codec ??= new CodecModule({ timezone: plan.timezone })).decode(batch.bytes, batch.frames);
            decoded = { count: result.count, errors: result.errors.map((error) => error.message) };
            input = { bytes: result.batch, count: result.count };
          }
          run = instance.runChain(input.bytes, plan.keep);
          encode = undefined;
        }
        const outputs: TransformResult['outputs'] = [{ output: undefined, batch: { bytes: run.output, count: run.count, encoded: encode !== undefined } }];
        const failures = run.failures;
        const errors = failures.filter((failure) => failure.outcome === 'error');
        const dropped = failures.filter((failure) => (failure.outcome === 'error' ? plan.dropOnError : plan.dropOnAbort));
        const discarded: NonNullable<TransformResult['discarded']> = [];
        if (plan.rerouteDropped) {
          outputs.push({ output: DROPPED, batch: annotate(dropped, input.frames ? 0 : new BatchReader(input.bytes).flags) });
        } else {
          const droppedErrors = dropped.filter((failure) => failure.outcome === 'error').length;
          const droppedAborts = dropped.length - droppedErrors;
          if (droppedErrors > 0) discarded.push({ count: droppedErrors, intentional: false, reason: 'Mapping failed with event.' });
          if (droppedAborts > 0) discarded.push({ count: droppedAborts, intentional: true, reason: 'Event mapping aborted.' });
        }
        return {
          outputs,
          discarded,
          errors: failureErrors(errors, 'conversion_failed', (message) => `Mapping failed with event: ${message}`),
          logs: logs.take(),
          decoded,
          encodeFailures,
        };
      },
    };
  },
};

export default remap;

/** The program of `source`, `file` or `files`, compiled. */
async function compiledProgram(config: RemapOptions, timezone: string, env: ComponentEnv): Promise<WebAssembly.Module> {
  const paths = config.files ?? (config.file === undefined ? [] : [config.file]);
  const texts = await Promise.all(
    paths.map((path) =>
      readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new Error(`cannot read the remap program "${path}": ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
      }),
    ),
  );
  const source = config.source ?? texts.join('\n');
  const what = paths.length > 0 ? `program ${paths.map((path) => `"${path}"`).join(', ')}` : undefined;
  // `framed`: the module can also decode its input and encode its output (host/topology/batch.ts).
  return compileProgram(source, { timezone, framed: true }, env, what);
}

/**
 * Vector's annotation of a dropped event: logs and traces get `{dropped: {reason, message, component_id,
 * component_type, component_kind}}` at `log_schema.metadata_key` (an event field, or metadata with `%`;
 * nothing when it is empty); metrics get tags `<metadata_key>.dropped.*` (without the message). The
 * original records are edited as bytes, never decoded.
 */
function annotator(plan: RemapPlan): (failures: ChainFailure[], flags: number) => { bytes: Uint8Array; count: number } {
  const key = plan.annotation;
  const common = { component_id: plan.componentId, component_type: 'remap', component_kind: 'transform' };
  return (failures, flags) => {
    const originals = new BatchWriter(flags);
    for (const failure of failures) originals.appendRaw(failure.record!);
    if (key === undefined) return { bytes: originals.finish(), count: originals.count };
    const annotated = new BatchWriter(flags);
    for (const { index, kind, metadata, event } of new BatchReader(originals.finish())) {
      const { outcome, message } = failures[index]!;
      const reason = outcome === 'error' ? 'error' : 'abort';
      if (kind === 'metric') {
        let tagged = event;
        for (const [name, value] of Object.entries({ reason, ...common })) tagged = withField(tagged, ['tags', `${key.tagPrefix}.${name}`], encode(value));
        annotated.appendEncoded(kind, metadata, tagged);
      } else {
        const dropped = encode({ dropped: { reason, message, ...common } });
        if (key.metadata) annotated.appendEncoded(kind, withField(metadata, key.fields, dropped), event);
        else annotated.appendEncoded(kind, metadata, withField(event, key.fields, dropped));
      }
    }
    return { bytes: annotated.finish(), count: annotated.count };
  };
}

/** `log_schema.metadata_key` as a path of fields (in the metadata when it starts with `%`). */
function annotationPath(text: string): RemapPlan['annotation'] {
  if (text === '') return undefined;
  const path = parseFieldPath(text);
  const fields = path.segments.map((segment) => {
    if ('index' in segment) throw new Error(`log_schema.metadata_key "${text}" holds an array index: it must be a path of fields`);
    return segment.field;
  });
  return { metadata: path.metadata, fields, tagPrefix: `${text.replace(/^[.%]/, '')}.dropped` };
}

// `remap`: runs a remap program on every event in chain mode (the module's output is the next input
// batch). A failed event is forwarded unchanged, dropped (`drop_on_error`, `drop_on_abort`), or with
// `reroute_dropped` sent unchanged to the `dropped` output, annotated as Vector annotates it. A metric is
// seen as Vector's VRL view of it and stays one metric (docs/abi.md §2.3). An event whose program needs
// more memory than `max_memory_bytes`, or traps, fails with a runtime error like any other; the instance
// starts afresh for the next one.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ChainFlag } from '../../../abi/batch.js';
import { DEFAULT_MEMORY_LIMIT } from '../../../runtime/index.js';
import { MAX_MEMORY_LIMIT, MIN_MEMORY_LIMIT } from '../../../runtime/engine.js';
import { parseFieldPath } from '../../config/template.js';
import type { EventKind } from '../../topology/batch.js';
import type { ComponentEnv, TransformDefinition } from '../component.js';
import { compileProgram, loadPrecompiledModule } from '../support/remap-program.js';
import { createRemap, DROPPED, type RemapPlan } from './remap-runner.js';

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

const remap: TransformDefinition<RemapOptions, RemapPlan> = {
  kind: 'transform',
  type: 'remap',
  concurrent: true,
  codecWork: () => true,
  description:
    "Modifies events with a remap program. Besides Vector's `source`, `file` and `files`, the program may be a " +
    'module precompiled by `svc vrl --emit-wasm` (`module`: its path; refused unless this svc can run it).',
  options,
  files: (config) => [...programPaths(config), ...(config.module === undefined ? [] : [config.module])],
  inputs: () => ALL_KINDS,
  outputs: (config) => [
    { name: undefined, kinds: ALL_KINDS },
    ...(config.reroute_dropped ? [{ name: DROPPED, kinds: ALL_KINDS }] : []),
  ],
  async prepare(config, env) {
    const timezone = config.timezone ?? env.globals.timezone;
    return {
      module:
        config.module === undefined
          ? await compiledProgram(config, timezone, env)
          : await loadPrecompiledModule(config.module),
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
  create: createRemap,
};

export default remap;

/** The files holding the program's text (`file` or `files`). */
function programPaths(config: RemapOptions): string[] {
  return config.files ?? (config.file === undefined ? [] : [config.file]);
}

/** The program of `source`, `file` or `files`, compiled. */
async function compiledProgram(config: RemapOptions, timezone: string, env: ComponentEnv): Promise<WebAssembly.Module> {
  const paths = programPaths(config);
  const texts = await Promise.all(
    paths.map((path) =>
      readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new Error(
          `cannot read the remap program "${path}": ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
        );
      }),
    ),
  );
  const source = config.source ?? texts.join('\n');
  const what = paths.length > 0 ? `program ${paths.map((path) => `"${path}"`).join(', ')}` : undefined;
  // `framed`: the module can also decode its input and encode its output (host/topology/batch.ts).
  return compileProgram(source, { timezone, framed: true }, env, what);
}

/** `log_schema.metadata_key` as a path of fields (in the metadata when it starts with `%`). */
function annotationPath(text: string): RemapPlan['annotation'] {
  if (text === '') return undefined;
  const path = parseFieldPath(text);
  const fields = path.segments.map((segment) => {
    if ('index' in segment)
      throw new Error(`log_schema.metadata_key "${text}" holds an array index: it must be a path of fields`);
    return segment.field;
  });
  return { metadata: path.metadata, fields, tagPrefix: `${text.replace(/^[.%]/, '')}.dropped` };
}

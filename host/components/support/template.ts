// Templates in transform options (`throttle.key_field`, `sample.group_by`): compiled at `prepare` to a
// small remap program (host/config/template.ts) and rendered for a whole batch in one call into wasm.

import { BatchFlag, decodeOutput, withFlags } from '../../../abi/batch.js';
import { templateToRemap } from '../../config/template.js';
import type { ComponentEnv, TransformResult } from '../component.js';
import type { RemapInstance } from '../../../runtime/index.js';
import { compileProgram, failureErrors, instantiateProgram, type RemapLogs } from './remap-program.js';

/** A template that is plain text renders without a program. */
export type TemplatePlan = { option: string; text: string } | { option: string; module: WebAssembly.Module };

export async function prepareTemplate(template: string, env: ComponentEnv, option: string): Promise<TemplatePlan> {
  const compiled = templateToRemap(template, {
    timestampKey: env.globals.log_schema.timestamp_key,
    timezone: env.globals.timezone,
  });
  if (!compiled.isDynamic) return { option, text: template };
  // Only the result is wanted: emptying the event keeps the module from copying it back out.
  const source = `_rendered = {\n${compiled.source}\n}\n. = {}\n_rendered`;
  return { option, module: await compileProgram(source, { timezone: env.globals.timezone }, env, option) };
}

export interface Rendered {
  /** Per record, the rendered text, or undefined when it failed (a missing field). */
  values: Array<string | undefined>;
  /** Vector's `template_failed` errors for the failed records (the events themselves go on). */
  errors: NonNullable<TransformResult['errors']>;
}

const lossyUtf8 = new TextDecoder('utf-8');

export class Template {
  private constructor(
    private readonly plan: TemplatePlan,
    private readonly instance: RemapInstance | undefined,
  ) {}

  static async create(plan: TemplatePlan, logs: RemapLogs): Promise<Template> {
    return new Template(plan, 'module' in plan ? await instantiateProgram(plan.module, logs) : undefined);
  }

  render(batch: Uint8Array, count: number): Rendered {
    if (this.instance === undefined)
      return { values: new Array<string>(count).fill((this.plan as { text: string }).text), errors: [] };
    const records = decodeOutput(this.instance.runBatch(withFlags(batch, BatchFlag.RESULTS | BatchFlag.RAW)));
    const failures: Array<{ message: string }> = [];
    const values = records.map((record) => {
      if (record.outcome === 'kept')
        return typeof record.result === 'string' ? record.result : lossyUtf8.decode(record.result as Uint8Array);
      if (record.outcome !== 'dropped') failures.push(record);
      return undefined;
    });
    const describe = (message: string) => `Failed to render template for "${this.plan.option}": ${message}`;
    return { values, errors: failureErrors(failures, 'template_failed', describe) };
  }
}

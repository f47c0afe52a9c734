// Templates in transform options (`throttle.key_field`, `sample.group_by`): compiled at `prepare` to a
// small remap program (host/config/template.ts) and rendered for a whole batch in one call into wasm. A
// template of text and fields only renders in JS instead, reading the fields in place, when every field of
// the batch is a value whose text is plain (a string, integer, boolean or null): the program, its copies of
// the batch and its output cost several times more, and such templates (`{{ method }}`) are the usual ones.

import { BatchFlag, decodeOutput, withFlags } from '../../../abi/batch.js';
import type { RemapValue } from '../../../abi/values.js';
import { BatchReader, type RecordCursor } from '../../../runtime/engine.js';
import { templateToRemap, valuePath, type CompiledTemplate } from '../../config/template.js';
import type { ComponentEnv, TransformResult } from '../component.js';
import type { RemapInstance } from '../../../runtime/index.js';
import { compileProgram, failureErrors, instantiateProgram, type RemapLogs } from './remap-program.js';

/** A template that is plain text renders without a program; one of text and fields has them (`parts`). */
export type TemplatePlan =
  | { option: string; text: string }
  | { option: string; module: WebAssembly.Module; parts?: FieldPart[] };

/** Text, or a field of the event (or of its metadata) as the batch reader walks it. */
export type FieldPart = string | { metadata: boolean; path: Array<string | number> };

/** The parts of a template of text and fields, which renders in JS where its fields are plain; undefined for
 * one with a time in it. */
export function fieldParts(compiled: CompiledTemplate): FieldPart[] | undefined {
  const parts: FieldPart[] = [];
  for (const part of compiled.parts) {
    if (part.kind === 'strftime') return undefined;
    parts.push(
      part.kind === 'field' ? { metadata: part.path.metadata, path: valuePath(part.path.segments) } : part.text,
    );
  }
  return parts;
}

/** The text of the record at `record` rendered from `parts`, when it is a log whose fields are plain values
 * (as the program renders them); undefined when the program renders it: a metric (the program sees its VRL
 * view, not its native fields), a missing field (the program words the error), a value whose text the
 * program alone gives (floats, timestamps, containers, invalid UTF-8). */
export function renderParts(
  parts: readonly FieldPart[],
  reader: BatchReader,
  record: RecordCursor,
): string | undefined {
  if (record.kind !== 'log') return undefined;
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else {
      const at = part.metadata ? record.metadataAt : record.eventAt;
      const field = plainText(reader.readPath(reader.bytes, part.path, at));
      if (field === undefined) return undefined;
      text += field;
    }
  }
  return text;
}

/** A template's program made to give only its result: emptying the event keeps the module from copying it
 * back out (and the host from decoding it). */
export const resultOnly = (source: string): string => `_rendered = {\n${source}\n}\n. = {}\n_rendered`;

export async function prepareTemplate(template: string, env: ComponentEnv, option: string): Promise<TemplatePlan> {
  const compiled = templateToRemap(template, {
    timestampKey: env.globals.log_schema.timestamp_key,
    timezone: env.globals.timezone,
  });
  if (!compiled.isDynamic) return { option, text: template };
  const module = await compileProgram(resultOnly(compiled.source), { timezone: env.globals.timezone }, env, option);
  return { option, module, parts: fieldParts(compiled) };
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
    const reader = new BatchReader(batch);
    const values = new Array<string>(count);
    for (const record = reader.cursor(); record.next(); ) {
      const text = this.plainText(reader, record);
      if (text === undefined) return this.renderByProgram(batch);
      values[record.index] = text;
    }
    return { values, errors: [] };
  }

  /** The text of the record at `record` when it renders without the program: the template is plain text, or
   * text and fields that `renderParts` renders; undefined when the program renders it. */
  plainText(reader: BatchReader, record: RecordCursor): string | undefined {
    if (this.instance === undefined) return (this.plan as { text: string }).text;
    const parts = 'parts' in this.plan ? this.plan.parts : undefined;
    return parts && renderParts(parts, reader, record);
  }

  /** Each record's text as the program renders it. */
  renderByProgram(batch: Uint8Array): Rendered {
    const records = decodeOutput(this.instance!.runBatch(withFlags(batch, BatchFlag.RESULTS | BatchFlag.RAW)));
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

/** The program's text of a field (`to_string`, `<null>` for null) where it is plain. */
function plainText(value: RemapValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return value === null ? '<null>' : undefined;
}

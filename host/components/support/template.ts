// Templates in transform options (`throttle.key_field`, `sample.group_by`): compiled at `prepare` to a
// small remap program (host/config/template.ts) and rendered for a whole batch in one call into wasm. A
// template of text, fields and times renders in JS instead, reading the fields in place, when every field of
// the batch is a value whose text is plain (a string, integer, boolean or null) and every timestamp is one:
// the program, its copies of the batch and its output cost several times more, and such templates
// (`{{ method }}`, `logs-%Y-%m-%d`) are the usual ones.

import { BatchFlag, decodeOutput, withFlags } from '../../../abi/batch.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { strftimeFormatter } from '../../../abi/strftime.js';
import { BatchReader, UTC, type RecordCursor } from '../../../runtime/engine.js';
import { parseFieldPath, templateToRemap, valuePath, type CompiledTemplate } from '../../config/template.js';
import type { ComponentEnv, TransformResult } from '../component.js';
import { namedTimeZone, type RemapInstance } from '../../../runtime/index.js';
import { compileProgram, failureErrors, instantiateProgram, type RemapLogs } from './remap-program.js';

/** A template that is plain text renders without a program; one of text and fields has them (`parts`). */
export type TemplatePlan =
  | { option: string; text: string }
  | { option: string; module: WebAssembly.Module; parts?: FieldPart[] };

/**
 * Text, a field of the event (or of its metadata) as the batch reader walks it, or text with strftime
 * specifiers that format the event's timestamp (at the `log_schema` key, in `timezone`, else UTC).
 */
export type FieldPart =
  | string
  | { metadata: boolean; path: Array<string | number> }
  | { strftime: string; timezone?: string; metadata: boolean; path: Array<string | number> };

/**
 * The parts of a template, which renders in JS where its fields are plain and its timestamp is one;
 * undefined for one whose time is the clock's (an empty `timestamp_key`).
 */
export function fieldParts(
  compiled: CompiledTemplate,
  { timestampKey, timezone }: { timestampKey: string; timezone?: string },
): FieldPart[] | undefined {
  const parts: FieldPart[] = [];
  for (const part of compiled.parts) {
    if (part.kind === 'literal') parts.push(part.text);
    else if (part.kind === 'field') parts.push({ metadata: part.path.metadata, path: valuePath(part.path.segments) });
    else {
      if (timestampKey === '') return undefined;
      const { metadata, segments } = parseFieldPath(timestampKey);
      parts.push({ strftime: part.format, timezone, metadata, path: valuePath(segments) });
    }
  }
  return parts;
}

/** The text of the record at `record` rendered from `parts`, when it is a log whose fields are plain values
 * (as the program renders them) and whose timestamp is a timestamp; undefined when the program renders it: a
 * metric (the program sees its VRL view, not its native fields), a missing field (the program words the
 * error), a value whose text the program alone gives (floats, timestamps, containers, invalid UTF-8), a
 * timestamp that is not one (the program takes the clock's). */
export function renderParts(
  parts: readonly FieldPart[],
  reader: BatchReader,
  record: RecordCursor,
): string | undefined {
  if (record.kind !== 'log') return undefined;
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const value = reader.readPath(reader.bytes, part.path, part.metadata ? record.metadataAt : record.eventAt);
    const rendered =
      'strftime' in part ? (value instanceof Timestamp ? formatted(part, value.nanos) : undefined) : plainText(value);
    if (rendered === undefined) return undefined;
    text += rendered;
  }
  return text;
}

/** Formatters by time zone and format, with the last text each wrote: a batch's events mostly share their
 * timestamp (a source stamps a read with one). */
const formatters = new Map<string, { format: (nanos: bigint) => string; nanos: bigint; text: string } | null>();

/** `format_timestamp(time, part.strftime, timezone: part.timezone)`, or undefined when it fails (the program
 * then words the error). */
function formatted(part: { strftime: string; timezone?: string }, nanos: bigint): string | undefined {
  const key = `${part.timezone ?? ''}\n${part.strftime}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    try {
      const zone = part.timezone === undefined ? UTC : namedTimeZone(part.timezone);
      const format = strftimeFormatter(part.strftime);
      formatter = { format: (at: bigint) => format(at, zone), nanos: -1n, text: '' };
    } catch {
      formatter = null;
    }
    formatters.set(key, formatter);
  }
  if (formatter === null) return undefined;
  if (formatter.nanos !== nanos) {
    formatter.text = formatter.format(nanos);
    formatter.nanos = nanos;
  }
  return formatter.text;
}

/** A template's program made to give only its result: emptying the event keeps the module from copying it
 * back out (and the host from decoding it). */
export const resultOnly = (source: string): string => `_rendered = {\n${source}\n}\n. = {}\n_rendered`;

export async function prepareTemplate(template: string, env: ComponentEnv, option: string): Promise<TemplatePlan> {
  const options = { timestampKey: env.globals.log_schema.timestamp_key, timezone: env.globals.timezone };
  const compiled = templateToRemap(template, options);
  if (!compiled.isDynamic) return { option, text: template };
  const module = await compileProgram(resultOnly(compiled.source), { timezone: options.timezone }, env, option);
  return { option, module, parts: fieldParts(compiled, options) };
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

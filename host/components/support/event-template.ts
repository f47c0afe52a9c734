// A sink option that is a template (`{{ field }}`, strftime: the file sink's `path`, the http sink's `uri`),
// rendered per event: a fixed text needs no rendering; a dynamic one renders in JS where it can
// (support/template.ts), else in wasm as a remap program over each batch. An event whose template does not render (a missing field) is counted, logged and left out, as Vector
// drops it; the batch's events are then grouped by what they rendered to.

import { BatchFlag, compile, type Program } from '../../../runtime/index.js';
import { decodeResults } from '../../../abi/batch.js';
import { BatchReader, pickRecords, recordEnds } from '../../../runtime/engine.js';
import { templateToRemap } from '../../config/template.js';
import { fieldParts, renderParts, resultOnly, type FieldPart } from './template.js';
import type { ComponentEnv } from '../component.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';

/** Why an event's template did not render. */
export interface RenderFailure {
  error: string;
}

/** Counts and logs a template an event did not render (Vector's `TemplateRenderingError`); `dropped`: the
 * event is dropped for it. */
export function templateFailed(env: ComponentEnv, field: string, message: string, dropped: boolean): void {
  env.telemetry.error('template_failed', 'processing');
  if (dropped) env.telemetry.discarded(1, false);
  env.log.error(`Failed to render template for "${field}": ${message}.${dropped ? ' Event dropped.' : ''}`, {
    error_type: 'template_failed',
    internal_log_rate_key: 'template_failed',
    stage: 'processing',
  });
}

export class EventTemplate {
  private constructor(
    /** The option's name in errors. */
    readonly option: string,
    private readonly fixed: string | undefined,
    private readonly program: Program | undefined,
    private readonly fieldNames: readonly string[],
    /** Text and fields, rendered in JS where the fields are plain (support/template.ts). */
    private readonly parts?: readonly FieldPart[],
  ) {}

  /** `option`: the option's name in errors (`path`, `uri`); `strftime`: as in TemplateOptions. */
  static async build(
    option: string,
    template: string,
    env: ComponentEnv,
    { timezone, strftime }: { timezone?: string; strftime?: boolean } = {},
  ): Promise<EventTemplate> {
    const timestampKey = env.globals.log_schema.timestamp_key;
    const compiled = templateToRemap(template, { timestampKey, timezone, strftime });
    const { source, isDynamic, fields } = compiled;
    if (!isDynamic) return new EventTemplate(option, template, undefined, fields);
    const program = await compile(resultOnly(source), { timezone });
    return new EventTemplate(option, undefined, program, fields, fieldParts(compiled, { timestampKey, timezone }));
  }

  /** The same text for every event, when the template has no field or time in it. */
  get fixedText(): string | undefined {
    return this.fixed;
  }

  /** The fields it reads, as written in the template. */
  get fields(): readonly string[] {
    return this.fieldNames;
  }

  /** The batch's events grouped by what they render to, in their order; the events that do not render are
   * counted as errors and discarded. */
  group(batch: EventBatch, env: ComponentEnv): Map<string, EventBatch> {
    if (this.fixed !== undefined) return new Map([[this.fixed, batch]]);
    return groupByTemplates([this], batch, env, ([text]) => text!);
  }

  /** What each event of the batch renders to, or why it does not. */
  renderEach(batch: EventBatch): Array<string | RenderFailure> {
    if (this.fixed !== undefined) return new Array<string>(batch.count).fill(this.fixed);
    if (this.parts) {
      const reader = new BatchReader(batch.bytes);
      const texts = new Array<string>(batch.count);
      let plain = true;
      for (const record = reader.cursor(); plain && record.next(); ) {
        const text = renderParts(this.parts, reader, record);
        if (text === undefined) plain = false;
        else texts[record.index] = text;
      }
      if (plain) return texts;
    }
    const input = batch.bytes.slice();
    new DataView(input.buffer).setUint16(6, BatchFlag.RESULTS, true);
    return decodeResults(this.program!.runBatch(input)).map((record) => {
      if (record.outcome === 'kept' && typeof record.result === 'string') return record.result;
      return {
        error:
          record.outcome === 'error' || record.outcome === 'aborted'
            ? record.message
            : `the ${this.option} did not render to a string`,
      };
    });
  }
}

/** The batch's events grouped by what each of `templates` renders to (`key`: one partition key of their
 * texts), in their order; an event that one of them does not render for is counted as an error and discarded. */
export function groupByTemplates(
  templates: readonly EventTemplate[],
  batch: EventBatch,
  env: ComponentEnv,
  key: (texts: string[]) => string,
): Map<string, EventBatch> {
  const rendered = templates.map((template) => template.renderEach(batch));
  const keys = rendered[0]!.map((_, index) => {
    const texts: string[] = [];
    for (const [at, template] of templates.entries()) {
      const text = rendered[at]![index]!;
      if (typeof text !== 'string') {
        templateFailed(env, template.option, text.error, true);
        return undefined;
      }
      texts.push(text);
    }
    return key(texts);
  });
  return groupByKey(batch, keys);
}

/** The batch's events grouped by their key (`keys[i]`: the i-th event's; undefined: left out), in order. */
export function groupByKey(batch: EventBatch, keys: ReadonlyArray<string | undefined>): Map<string, EventBatch> {
  const ends = recordEnds(batch.bytes);
  const members = new Map<string, Uint8Array>();
  for (let index = 0; index < ends.length; index++) {
    const key = keys[index];
    if (key === undefined) continue;
    let bits = members.get(key);
    if (bits === undefined) members.set(key, (bits = new Uint8Array((ends.length + 7) >> 3)));
    bits[index >> 3]! |= 1 << (index & 7);
  }
  return new Map([...members].map(([key, bits]) => [key, toBatch(pickRecords(batch.bytes, ends, bits).bytes)]));
}

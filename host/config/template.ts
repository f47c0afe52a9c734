// Vector templates (`{{ field.path }}` fields and strftime specifiers formatting the event's timestamp)
// compiled to the source text of a small remap program, so they run in wasm like every other condition.

import { z } from 'zod';

/** A field path segment: a field name or an array index. */
export type PathSegment = { field: string } | { index: number };

/** A parsed path: fields of the event, or of its metadata when written with a leading `%`. */
export interface FieldPath {
  metadata: boolean;
  segments: PathSegment[];
}

/** The segments as the batch reader walks them (runtime/batch-io.ts `ValuePath`): names and indexes. */
export function valuePath(segments: readonly PathSegment[]): Array<string | number> {
  return segments.map((segment) => ('field' in segment ? segment.field : segment.index));
}

/** A template that cannot be parsed; the message says what is wrong (the caller adds file and option). */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** Segments: a bare field name, a quoted field name, or an index in brackets. */
const SEGMENT = /([A-Za-z0-9_@]+)|"((?:[^"\\]|\\.)*)"|\[(-?\d+)\]/y;

/**
 * Parses a path as Vector writes them in templates and `log_schema`: `foo.bar`, `.foo.bar`, `foo[0]`,
 * `"a.b".c`, `%meta`. An empty path (or just `.`) is the root.
 */
export function parseFieldPath(text: string): FieldPath {
  const metadata = text.startsWith('%');
  let position = metadata ? 1 : 0;
  const segments: PathSegment[] = [];
  const fail = (): never => {
    throw new TemplateError(`invalid field path "${text}"`);
  };
  if (text[position] === '.') position++;
  while (position < text.length) {
    if (segments.length > 0 && text[position] !== '[') {
      if (text[position] !== '.') fail();
      position++;
    }
    SEGMENT.lastIndex = position;
    const match = SEGMENT.exec(text) ?? fail();
    if (match[1] !== undefined) segments.push({ field: match[1] });
    else if (match[2] !== undefined) segments.push({ field: match[2].replace(/\\(.)/g, '$1') });
    else segments.push({ index: Number(match[3]) });
    position = SEGMENT.lastIndex;
  }
  return { metadata, segments };
}

/** A remap string literal; `{` is escaped because remap strings are themselves templates. */
export function remapString(text: string): string {
  const escapes: Record<string, string> = {
    '\\': '\\\\',
    '"': '\\"',
    '{': '\\{',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
  };
  return `"${text.replace(/[\\"{\n\r\t]/g, (c) => escapes[c]!)}"`;
}

/** The remap path expression of a parsed path. */
export function remapPath(path: FieldPath): string {
  const segments = path.segments
    .map((s) => {
      if ('index' in s) return `[${s.index}]`;
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.field) ? `.${s.field}` : `.${remapString(s.field)}`;
    })
    .join('');
  if (path.metadata) return `%${segments.replace(/^\./, '')}`;
  return segments === '' ? '.' : segments;
}

/**
 * chrono's strftime specifiers (what Vector accepts): optional padding flag then a letter, fractional
 * seconds forms, and the zone offset variants. `%%`, `%n` and `%t` are literal text.
 */
const STRFTIME = /%(?:[-_0]?([YCymbhBdeaAwuUWGgVjDxFvHkIlPpMSRTXrZzcsf])|(\.?[369]?f|:{1,3}z|#z|\+)|([%nt]))|%(.?)/g;

/** A template's pieces: literal text, a field, or text with strftime specifiers. */
export type TemplatePart =
  | { kind: 'literal'; text: string }
  | { kind: 'field'; name: string; path: FieldPath }
  | { kind: 'strftime'; format: string };

/** Vector's field syntax: `{{ key }}` where the key holds no `}`. */
const FIELD = /\{\{([^}]+)\}\}/g;

/** Text outside fields: a strftime part when it holds a specifier (validated), else literal as written. */
function literalPart(text: string): TemplatePart {
  let dynamic = false;
  for (const m of text.matchAll(STRFTIME)) {
    if (m[4] !== undefined) throw new TemplateError(`invalid strftime specifier "%${m[4]}" in "${text}"`);
    if (m[3] === undefined) dynamic = true;
  }
  return dynamic ? { kind: 'strftime', format: text } : { kind: 'literal', text };
}

/** Splits a template into parts, validating field paths and (unless `strftime` is false: `%` is then plain
 * text) strftime specifiers. */
function parseTemplate(template: string, strftime = true): TemplatePart[] {
  const parts: TemplatePart[] = [];
  const literal = (text: string): TemplatePart => (strftime ? literalPart(text) : { kind: 'literal', text });
  let last = 0;
  for (const m of template.matchAll(FIELD)) {
    if (m.index > last) parts.push(literal(template.slice(last, m.index)));
    const name = m[1]!.trim();
    if (name === '') throw new TemplateError(`empty field in template "${template}"`);
    parts.push({ kind: 'field', name, path: parseFieldPath(name) });
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push(literal(template.slice(last)));
  return parts;
}

export interface TemplateOptions {
  /** `log_schema.timestamp_key`; empty for none (strftime parts then use the current time). */
  timestampKey: string;
  /** Zone for strftime parts (a TZ-database name or `local`); UTC when unset, as Vector renders. */
  timezone?: string;
  /** False: `%` is plain text (a URI's percent-encoding), only `{{ field }}` is rendered. */
  strftime?: boolean;
}

/** A template as a remap program returning the rendered string. */
export interface CompiledTemplate {
  source: string;
  /** The fields it reads, as written in the template. */
  fields: string[];
  /** False when the template is plain text (the program is one string literal). */
  isDynamic: boolean;
  parts: TemplatePart[];
}

/**
 * Compiles a template to remap source. The program aborts with Vector's "Missing fields on event: [...]"
 * when fields are absent (a field set to null renders `<null>`, as Vector's lossy string does); strftime
 * parts format the event's timestamp, or the current time when it is absent or not a timestamp.
 */
export function templateToRemap(template: string, options: TemplateOptions): CompiledTemplate {
  const parts = parseTemplate(template, options.strftime);
  const fields = parts.flatMap((p) => (p.kind === 'field' ? [p.name] : []));
  const isDynamic = parts.some((p) => p.kind !== 'literal');
  const lines: string[] = [];
  if (fields.length > 0) {
    lines.push('_missing = []');
    for (const part of parts) {
      if (part.kind !== 'field') continue;
      // Vector prints the list with Rust's debug format: ["a", "b"].
      lines.push(
        `if !exists(${remapPath(part.path)}) { _missing = push(_missing, ${remapString(JSON.stringify(part.name))}) }`,
      );
    }
    lines.push('if length(_missing) > 0 { abort "Missing fields on event: [" + join!(_missing, ", ") + "]" }');
  }
  if (parts.some((p) => p.kind === 'strftime')) {
    const timestamp = options.timestampKey === '' ? 'now()' : remapPath(parseFieldPath(options.timestampKey));
    lines.push(`_timestamp = ${timestamp}`, 'if !is_timestamp(_timestamp) { _timestamp = now() }');
  }
  const zone = options.timezone === undefined ? '' : `, timezone: ${remapString(options.timezone)}`;
  const rendered = parts.map((part, i) => {
    switch (part.kind) {
      case 'literal':
        return remapString(part.text);
      case 'strftime':
        return `format_timestamp!(_timestamp, ${remapString(part.format)}${zone})`;
      case 'field': {
        const path = remapPath(part.path);
        lines.push(`_field${i} = if is_null(${path}) { "<null>" } else { to_string(${path}) ?? encode_json(${path}) }`);
        return `_field${i}`;
      }
    }
  });
  lines.push(rendered.length === 0 ? '""' : rendered.join(' + '));
  return { source: lines.join('\n'), fields, isDynamic, parts };
}

/** A template option in a component schema: a string that must parse as a template (`strftime`: as in
 * TemplateOptions). */
export function templateOption(strftime = true) {
  return z.string().superRefine((value, context) => {
    try {
      parseTemplate(value, strftime);
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      context.addIssue({ code: 'custom', message: e.message });
    }
  });
}

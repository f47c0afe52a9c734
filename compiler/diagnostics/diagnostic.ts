// Compile-time diagnostics as VRL reports them: a code, a message, labelled source spans and notes.
// This is plain data; `render.ts` turns it into VRL's text layout.

import type { Span } from '../ast.js';

export type Severity = 'error' | 'warning';

export interface Label {
  message: string;
  /** Primary labels are underlined with `^`, secondary ones with `-`. */
  primary: boolean;
  span: Span;
}

/** VRL's note kinds; their text is fixed by `noteText`. */
export type Note =
  | { kind: 'hint'; text: string }
  | { kind: 'example'; text: string }
  | { kind: 'coerce-value' }
  | { kind: 'see-function-docs'; name: string }
  | { kind: 'see-error-docs' }
  | { kind: 'see-function-characteristics-docs' }
  | { kind: 'see-code-docs'; code: number }
  | { kind: 'see-lang-docs' }
  | { kind: 'see-repl' }
  | { kind: 'see-docs'; about: string; url: string }
  | { kind: 'basic'; text: string }
  | { kind: 'user-error-message'; text: string };

export interface Diagnostic {
  severity: Severity;
  code: number;
  message: string;
  labels: Label[];
  notes: Note[];
}

/** Codes whose diagnostics are warnings: they are reported but do not fail compilation. */
const WARNING_CODES: ReadonlySet<number> = new Set([620, 801, 900]);

export function diagnostic(code: number, message: string, labels: Label[], notes: Note[] = []): Diagnostic {
  return { severity: WARNING_CODES.has(code) ? 'warning' : 'error', code, message, labels, notes };
}

export const primary = (span: Span, message = ''): Label => ({ message, primary: true, span });
export const secondary = (span: Span, message = ''): Label => ({ message, primary: false, span });

export function noteText(note: Note): string {
  switch (note.kind) {
    case 'hint':
      return `hint: ${note.text}`;
    case 'example':
      return `example: ${note.text}`;
    case 'coerce-value':
      return 'hint: coerce the value to the required type using a coercion function';
    case 'see-function-docs':
      return `see function documentation at: https://vrl.dev/functions/#${note.name}`;
    case 'see-error-docs':
      return 'see documentation about error handling at https://errors.vrl.dev/#handling';
    case 'see-function-characteristics-docs':
      return 'see functions characteristics documentation at https://vrl.dev/expressions/#function-call-characteristics';
    case 'see-code-docs':
      return `learn more about error code ${note.code} at https://errors.vrl.dev/${note.code}`;
    case 'see-lang-docs':
      return 'see language documentation at https://vrl.dev';
    case 'see-repl':
      return 'try your code in the VRL REPL, learn more at https://vrl.dev/examples';
    case 'see-docs':
      return `see documentation about ${note.about} at ${note.url}`;
    case 'basic':
    case 'user-error-message':
      return note.text;
  }
}

/** The notes VRL appends to every diagnostic when it is shown. */
export function allNotes(d: Diagnostic): Note[] {
  const notes = [...d.notes];
  if (d.code >= 100 && d.code <= 110) notes.push({ kind: 'see-code-docs', code: d.code });
  notes.push({ kind: 'see-lang-docs' }, { kind: 'see-repl' });
  return notes;
}

/** Thrown (as a rejection) by `compile` when a program has errors. */
export class CompileError extends Error {
  readonly diagnostics: ReadonlyArray<Diagnostic>;
  readonly warnings: ReadonlyArray<Diagnostic>;
  constructor(rendered: string, diagnostics: Diagnostic[], warnings: Diagnostic[]) {
    super(rendered);
    this.name = 'CompileError';
    this.diagnostics = diagnostics;
    this.warnings = warnings;
  }
}

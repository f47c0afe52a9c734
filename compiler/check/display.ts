// Prints an expression the way VRL's AST `Display` does; VRL quotes programs in its suggestions
// ("or change this to an infallible assignment: x, err = upcase(.b)").

import type * as ast from '../ast.js';
import { Timestamp } from '../../abi/values.js';
import { readTimestampLiteral } from '../types/timestamp.js';

export interface DisplayOptions {
  /**
   * Print as VRL prints a compiled expression, which is what its suggestions quote: calls without `!`,
   * keyword names and closure, object keys sorted, floats and timestamps as values print.
   */
  compiled?: boolean;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function displayPath(path: readonly ast.PathSegment[]): string {
  return path
    .map((s) => {
      switch (s.kind) {
        case 'field':
          return IDENT.test(s.name) && !s.quoted ? `.${s.name}` : `.${JSON.stringify(s.name)}`;
        case 'index':
          return `[${s.index}]`;
        case 'coalesce':
          return `.(${s.fields.join(' | ')})`;
      }
    })
    .join('');
}

export function displayQuery(q: ast.Query, options: DisplayOptions = {}): string {
  const path = displayPath(q.path);
  switch (q.target.kind) {
    case 'event':
      return path === '' ? '.' : path;
    case 'metadata':
      return `%${path.replace(/^\./, '')}`;
    case 'variable':
      return q.target.name + path;
    case 'expr':
      return display(q.target.expr, options) + path;
  }
}

/** A timestamp literal as a value prints: UTC, `Z`, 0/3/6/9 fractional digits. */
function canonicalTimestamp(text: string): string {
  const read = readTimestampLiteral(text);
  return 'nanos' in read ? new Timestamp(read.nanos).toString() : text;
}

function displayLiteral(v: ast.LiteralValue, compiled: boolean): string {
  switch (v.kind) {
    case 'string':
      return JSON.stringify(v.value);
    case 'integer':
      return v.value.toString();
    case 'float':
      return Number.isInteger(v.value) && !compiled ? v.value.toFixed(1) : String(v.value);
    case 'boolean':
      return String(v.value);
    case 'null':
      return 'null';
    case 'timestamp':
      return `t'${compiled ? canonicalTimestamp(v.text) : v.text}'`;
    // VRL prints a regex literal as its bare pattern.
    case 'regex':
      return v.pattern;
  }
}

export function displayTarget(t: ast.AssignTarget): string {
  return t.kind === 'noop' ? '_' : displayQuery(t.query);
}

function displayBlock(b: ast.Block, options: DisplayOptions): string {
  return `{\n${b.exprs.map((e) => `\t${display(e, options)}`).join('\n')}\n}`;
}

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function display(e: ast.Expr, options: DisplayOptions = {}): string {
  const compiled = options.compiled ?? false;
  switch (e.type) {
    case 'Literal':
      return displayLiteral(e.value, compiled);
    case 'Template':
      return JSON.stringify(e.parts.map((p) => (typeof p === 'string' ? p : `{{ ${display(p, options)} }}`)).join(''));
    case 'Array':
      return `[${e.items.map((i) => display(i, options)).join(', ')}]`;
    case 'Object': {
      const entries = compiled ? [...e.entries].sort((a, b) => byteOrder(a.key, b.key)) : e.entries;
      return `{ ${entries.map((en) => `${JSON.stringify(en.key)}: ${display(en.value, options)}`).join(', ')} }`;
    }
    case 'Query':
      return displayQuery(e, options);
    case 'Variable':
      return e.name;
    case 'Call': {
      if (compiled) return `${e.name}(${e.args.map((a) => display(a.value, options)).join(', ')})`;
      const args = e.args.map((a) => (a.name ? `${a.name}: ` : '') + display(a.value, options)).join(', ');
      const closure = e.closure
        ? ` -> |${e.closure.params.map((p) => p.name).join(', ')}| ${displayBlock(e.closure.body, options)}`
        : '';
      return `${e.name}${e.abort ? '!' : ''}(${args})${closure}`;
    }
    case 'Unary':
      return `!${display(e.operand, options)}`;
    case 'Binary':
      return `${display(e.left, options)} ${e.op} ${display(e.right, options)}`;
    case 'Assign': {
      const targets = e.errorTarget
        ? `${displayTarget(e.target)}, ${displayTarget(e.errorTarget)}`
        : displayTarget(e.target);
      return `${targets} ${e.op} ${display(e.value, options)}`;
    }
    case 'If': {
      const alt = e.else
        ? ` else${e.else.type === 'If' ? ` ${display(e.else, options)}` : displayBlock(e.else, options)}`
        : '';
      return `if ${display(e.predicate, options)} ${displayBlock(e.then, options)}${alt}`;
    }
    case 'Block':
      return displayBlock(e, options);
    case 'Group':
      return `(${display(e.expr, options)})`;
    case 'Sequence':
      return `(${e.exprs.map((x) => display(x, options)).join('; ')})`;
    case 'Abort':
      return e.message ? `abort ${display(e.message, options)}` : 'abort';
    case 'Return':
      return `return ${display(e.value, options)}`;
  }
}

/** VRL quotes programs in its suggestions as compiled expressions. */
export const COMPILED = { compiled: true } as const;

/** How VRL prints a call in its notes: the call's own `!`, its arguments as compiled. */
export function callText(e: ast.Call): string {
  return `${e.name}${e.abort ? '!' : ''}(${e.args.map((a) => display(a.value, COMPILED)).join(', ')})`;
}

// Compile-time knowledge of the program's state: the kinds of the event, its metadata and the variables
// in scope, updated as assignments and `del` are checked (VRL's progressive type knowledge).

import type { Span } from '../ast.js';
import type { Constant } from '../functions/define.js';
import { ANY, objectOf, union, type Kind } from '../types/kind.js';

/** One `name = …` introduction of a variable; shared by every copy of the state so reads are seen by all. */
export interface Declaration {
  name: string;
  span: Span;
  read: boolean;
}

export interface VariableInfo {
  kind: Kind;
  constant?: Constant;
  declaration: Declaration;
}

export class TypeState {
  /** Innermost scope last; a block or closure pushes one. */
  private scopes: Array<Map<string, VariableInfo>>;
  target: Kind;
  metadata: Kind;

  constructor(target: Kind = objectOf(ANY), metadata: Kind = objectOf(ANY), scopes?: Array<Map<string, VariableInfo>>) {
    this.target = target;
    this.metadata = metadata;
    this.scopes = scopes ?? [new Map()];
  }

  clone(): TypeState {
    return new TypeState(this.target, this.metadata, this.scopes.map((s) => new Map(s)));
  }

  pushScope(): void { this.scopes.push(new Map()); }
  popScope(): void { this.scopes.pop(); }

  variable(name: string): VariableInfo | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Names in scope, outermost first, in the order they were introduced. */
  variableNames(): string[] {
    return [...new Set(this.scopes.flatMap((s) => [...s.keys()]))];
  }

  /** Sets a variable where it already lives, or introduces it in the innermost scope. */
  setVariable(name: string, info: VariableInfo): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      if (this.scopes[i]!.has(name)) { this.scopes[i]!.set(name, info); return; }
    }
    this.scopes[this.scopes.length - 1]!.set(name, info);
  }

  /** Defines a variable in the innermost scope (closure parameters). */
  defineLocal(name: string, info: VariableInfo): void {
    this.scopes[this.scopes.length - 1]!.set(name, info);
  }

  /**
   * Joins the knowledge of two states the program may be in (after if/else branches, or a closure that may run
   * zero or more times). Only variables known before the branch survive; block-local ones end with their block.
   */
  join(other: TypeState): void {
    this.target = union(this.target, other.target);
    this.metadata = union(this.metadata, other.metadata);
    this.scopes.forEach((scope, depth) => {
      const theirs = other.scopes[depth];
      for (const [name, mine] of scope) {
        const their = theirs?.get(name);
        if (!their || their === mine) continue;
        const same = their.constant && mine.constant && sameConstant(mine.constant, their.constant);
        scope.set(name, {
          kind: union(mine.kind, their.kind),
          constant: same ? mine.constant : undefined,
          declaration: mine.declaration,
        });
      }
    });
  }
}

/** Constants hold bigints and Maps, which JSON.stringify needs spelled out to compare them. */
const constantKey = (c: Constant): string =>
  JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v));

const sameConstant = (a: Constant, b: Constant): boolean => constantKey(a) === constantKey(b);

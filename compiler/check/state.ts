// Compile-time knowledge of the program's state: the kinds of the event, its metadata and the variables
// in scope, updated as assignments and `del` are checked (VRL's progressive type knowledge).

import type { Span } from '../ast.js';
import type { Constant } from '../functions/define.js';
import { ANY, objectOf, union, type Kind } from '../types/kind.js';
import { PersistentMap } from '../types/persistent-map.js';

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

/** A variable in a scope, with when its name was introduced there (scopes list names in that order). */
interface ScopeEntry {
  info: VariableInfo;
  introduced: number;
}
/**
 * Persistent, so that copying the state for an if's branches costs nothing and joining them visits only
 * the variables they changed (copied Maps made checking quadratic in the number of variables).
 */
type Scope = PersistentMap<string, ScopeEntry>;

/** Orders names by introduction across all states; only the relative order matters. */
let introductions = 0;

export class TypeState {
  /** Innermost scope last; a block or closure pushes one. */
  private scopes: Scope[];
  target: Kind;
  metadata: Kind;

  constructor(target: Kind = objectOf(ANY), metadata: Kind = objectOf(ANY), scopes?: Scope[]) {
    this.target = target;
    this.metadata = metadata;
    this.scopes = scopes ?? [PersistentMap.empty()];
  }

  clone(): TypeState {
    return new TypeState(this.target, this.metadata, [...this.scopes]);
  }

  pushScope(): void {
    this.scopes.push(PersistentMap.empty());
  }
  popScope(): void {
    this.scopes.pop();
  }

  variable(name: string): VariableInfo | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found) return found.info;
    }
    return undefined;
  }

  /** Names in scope, outermost first, in the order they were introduced. */
  variableNames(): string[] {
    const inOrder = (scope: Scope) =>
      [...scope].sort(([, a], [, b]) => a.introduced - b.introduced).map(([name]) => name);
    return [...new Set(this.scopes.flatMap(inOrder))];
  }

  /** Sets a variable where it already lives, or introduces it in the innermost scope. */
  setVariable(name: string, info: VariableInfo): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found) {
        this.scopes[i] = this.scopes[i]!.set(name, { info, introduced: found.introduced });
        return;
      }
    }
    this.defineLocal(name, info);
  }

  /** Defines a variable in the innermost scope (closure parameters). */
  defineLocal(name: string, info: VariableInfo): void {
    const last = this.scopes.length - 1;
    const found = this.scopes[last]!.get(name);
    this.scopes[last] = this.scopes[last]!.set(name, { info, introduced: found?.introduced ?? introductions++ });
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
      if (!theirs) return;
      let joined = scope;
      scope.differences(theirs, (name, mine, their) => {
        if (!mine || !their || their.info === mine.info) return;
        const same = their.info.constant && mine.info.constant && sameConstant(mine.info.constant, their.info.constant);
        joined = joined.set(name, {
          introduced: mine.introduced,
          info: {
            kind: union(mine.info.kind, their.info.kind),
            constant: same ? mine.info.constant : undefined,
            declaration: mine.info.declaration,
          },
        });
      });
      this.scopes[depth] = joined;
    });
  }
}

/** Constants hold bigints and Maps, which JSON.stringify needs spelled out to compare them. */
const constantKey = (c: Constant): string =>
  JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v));

const sameConstant = (a: Constant, b: Constant): boolean => constantKey(a) === constantKey(b);

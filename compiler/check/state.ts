// Compile-time knowledge of the program's state: the kinds of the event, its metadata and the variables
// in scope, updated as assignments and `del` are checked (VRL's progressive type knowledge).

import type { PathSegment, Span } from '../ast.js';
import type { Constant } from '../functions/define.js';
import {
  ANY, K, UNDEFINED, arrayOf, fieldOf, indexOf, objectOf, union, without, type Kind,
} from '../types/kind.js';

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

/** Kind found at a path (may include `undefined` where the path may not exist). */
export function kindAt(root: Kind, path: readonly PathSegment[]): Kind {
  let k = root;
  for (const seg of path) {
    switch (seg.kind) {
      case 'field': k = fieldOf(k, seg.name); break;
      case 'index': k = indexOf(k, seg.index); break;
      case 'coalesce': k = union(...seg.fields.map((f) => fieldOf(k, f))); break;
    }
  }
  return k;
}

/** The root kind after `path = value`. Parents that are not containers become the needed container. */
export function assignAt(root: Kind, path: readonly PathSegment[], value: Kind): Kind {
  if (path.length === 0) return value;
  const [seg, ...rest] = path as [PathSegment, ...PathSegment[]];
  switch (seg.kind) {
    case 'field':
      return setField(root, seg.name, assignAt(fieldOf(root, seg.name), rest, value));
    case 'coalesce': {
      // The first existing field is written; statically any of them may be.
      const options = seg.fields.map((f) => setField(root, f, assignAt(fieldOf(root, f), rest, value)));
      return union(...options);
    }
    case 'index': {
      const current = root.array ?? { known: new Map<number, Kind>(), unknown: undefined };
      const known = new Map(current.known);
      if (seg.index < 0) {
        return arrayOf(union(current.unknown ?? UNDEFINED, ...known.values(), assignAt(ANY, rest, value)), known);
      }
      for (let i = 0; i < seg.index; i++) if (!known.has(i) && !current.unknown) known.set(i, { bits: K.Null });
      known.set(seg.index, assignAt(indexOf(root, seg.index), rest, value));
      return arrayOf(current.unknown, known);
    }
  }
}

function setField(root: Kind, name: string, value: Kind): Kind {
  const current = root.object;
  const known = new Map(current?.known ?? []);
  known.set(name, value);
  return objectOf(current?.unknown, known);
}

/** The root kind after `del(path)`. */
export function deleteAt(root: Kind, path: readonly PathSegment[]): Kind {
  if (path.length === 0) return objectOf(undefined);
  const [seg, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (seg.kind === 'field' && root.object) {
    const known = new Map(root.object.known);
    // VRL reads a deleted field as `any` afterwards, whatever it knew of its parent.
    if (rest.length === 0) known.set(seg.name, ANY);
    else if (known.has(seg.name)) known.set(seg.name, deleteAt(known.get(seg.name)!, rest));
    return { ...root, object: { known, unknown: root.object.unknown } };
  }
  if (seg.kind === 'index' && root.array && rest.length > 0 && root.array.known.has(seg.index)) {
    const known = new Map(root.array.known);
    known.set(seg.index, deleteAt(known.get(seg.index)!, rest));
    return { ...root, array: { known, unknown: root.array.unknown } };
  }
  // Removing an array element shifts the rest: only the element kinds stay known.
  if (seg.kind === 'index' && root.array && rest.length === 0) {
    return { ...root, array: { known: new Map(), unknown: union(...root.array.known.values(), root.array.unknown ?? UNDEFINED) } };
  }
  return root;
}

/** Kind of a parent container that cannot take the segment: not null/undefined and not the container needed. */
export function rejectsSegment(parent: Kind, seg: PathSegment): boolean {
  const defined = without(parent, K.Null | K.Undefined);
  if (defined.bits === 0) return false;
  return seg.kind === 'index' ? !(defined.bits & K.Array) : !(defined.bits & K.Object);
}

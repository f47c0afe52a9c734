// VRL's type lattice. A Kind is a set of primitive kinds plus, for arrays and objects, what is known of
// their contents: some known entries and a kind for all the others (`unknown`; absent = no other entries).

import { KindBit as K } from '../../abi/wire/kinds.js';
import { PersistentMap } from './persistent-map.js';

/** Kind bits, shared with the stdlib's run-time argument checks. */
export { K };

export const SCALARS = K.Bytes | K.Integer | K.Float | K.Boolean | K.Timestamp | K.Regex | K.Null;
/** Every kind, including `undefined` (a path of the event that may not exist is `any`, as in VRL). */
export const ANY_BITS = SCALARS | K.Array | K.Object | K.Undefined;

export interface Collection<Key> {
  known: ReadonlyMap<Key, Kind>;
  /** Kind of entries other than the known ones; undefined means there are none. */
  unknown?: Kind;
}

export interface Kind {
  readonly bits: number;
  readonly object?: Collection<string>;
  readonly array?: Collection<number>;
}

const EMPTY = new Map<never, Kind>();

function lazyAny(): Kind {
  const any: { bits: number; object?: Collection<string>; array?: Collection<number> } = { bits: ANY_BITS };
  any.object = { known: EMPTY, unknown: any };
  any.array = { known: EMPTY, unknown: any };
  return any;
}

/** Every kind, with collections of anything (self-referential). */
export const ANY: Kind = lazyAny();
export const NEVER: Kind = { bits: 0 };
export const BYTES: Kind = { bits: K.Bytes };
export const INTEGER: Kind = { bits: K.Integer };
export const FLOAT: Kind = { bits: K.Float };
export const BOOLEAN: Kind = { bits: K.Boolean };
export const TIMESTAMP: Kind = { bits: K.Timestamp };
export const REGEX: Kind = { bits: K.Regex };
export const NULL: Kind = { bits: K.Null };
export const UNDEFINED: Kind = { bits: K.Undefined };
/** Any JSON value: what parsers of JSON-like text return. */
export const JSON_KIND: Kind = union(
  { bits: K.Bytes | K.Integer | K.Float | K.Boolean | K.Null },
  arrayOf(ANY),
  objectOf(ANY),
);

export function objectOf(
  unknown: Kind | undefined,
  known: Record<string, Kind> | ReadonlyMap<string, Kind> = {},
): Kind {
  const map = known instanceof Map || known instanceof PersistentMap ? known : new Map(Object.entries(known));
  return { bits: K.Object, object: { known: map, unknown } };
}

export function arrayOf(unknown: Kind | undefined, known: readonly Kind[] | ReadonlyMap<number, Kind> = []): Kind {
  const map = known instanceof Map ? known : new Map((known as readonly Kind[]).map((k, i) => [i, k] as const));
  return { bits: K.Array, array: { known: map, unknown } };
}

/** An object with exactly these fields. */
export const exactObject = (fields: Record<string, Kind>): Kind => objectOf(undefined, fields);
/** An array with exactly these items. */
export const exactArray = (items: readonly Kind[]): Kind => arrayOf(undefined, items);

/** True when k is exactly these primitive bits (and nothing else). */
export const isExactly = (k: Kind, bits: number): boolean => k.bits === bits;
export const isAny = (k: Kind): boolean => (k.bits & ANY_BITS) === ANY_BITS;

function unionCollection<T>(a: Collection<T> | undefined, b: Collection<T> | undefined): Collection<T> | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a === b) return a;
  const known =
    a.known instanceof PersistentMap && b.known instanceof PersistentMap ? unionShared(a, b) : unionKnown(a, b);
  const unknown = a.unknown && b.unknown ? union(a.unknown, b.unknown) : (a.unknown ?? b.unknown);
  return { known, unknown };
}

/** A key known on one side only has the other side's kind for unknown entries (or is missing there). */
function unionKnown<T>(a: Collection<T>, b: Collection<T>): ReadonlyMap<T, Kind> {
  const known = new Map<T, Kind>();
  for (const [key, ka] of a.known) {
    const kb = b.known.get(key) ?? b.unknown ?? UNDEFINED;
    known.set(key, union(ka, kb));
  }
  for (const [key, kb] of b.known) {
    if (!a.known.has(key)) known.set(key, union(a.unknown ?? UNDEFINED, kb));
  }
  return known;
}

/** `unionKnown` of persistent maps (branches of one type state share most entries): only the entries they do not share are joined. */
function unionShared<T>(a: Collection<T>, b: Collection<T>): ReadonlyMap<T, Kind> {
  const mine = a.known as unknown as PersistentMap<string | number, Kind>;
  let known = mine;
  mine.differences(b.known as unknown as PersistentMap<string | number, Kind>, (key, ka, kb) => {
    known = known.set(key, union(ka ?? a.unknown ?? UNDEFINED, kb ?? b.unknown ?? UNDEFINED));
  });
  return known as unknown as ReadonlyMap<T, Kind>;
}

export function union(...kinds: Kind[]): Kind {
  let out: Kind = NEVER;
  for (const k of kinds) {
    if (out === NEVER) {
      out = k;
      continue;
    }
    if (out === k || k === NEVER) continue;
    if (out === ANY || k === ANY) {
      out = out === ANY ? out : k;
      if (out === ANY) continue;
    }
    out = {
      bits: out.bits | k.bits,
      object: unionCollection(out.object, k.object),
      array: unionCollection(out.array, k.array),
    };
  }
  return out;
}

/** k without the given primitive bits (collections dropped with their bit). */
export function without(k: Kind, bits: number): Kind {
  const rest = k.bits & ~bits;
  return {
    bits: rest,
    object: rest & K.Object ? k.object : undefined,
    array: rest & K.Array ? k.array : undefined,
  };
}

/** Keeps only the given primitive bits of k. */
export const only = (k: Kind, bits: number): Kind => without(k, ~bits & ANY_BITS);

/** `undefined` as seen by a reader: a missing value reads as null. */
export function readable(k: Kind): Kind {
  if (!(k.bits & K.Undefined)) return k;
  return union(without(k, K.Undefined), NULL);
}

/** Kind of one element when indexing with a field name. */
export function fieldOf(k: Kind, name: string): Kind {
  const parts: Kind[] = [];
  if (k.object) parts.push(k.object.known.get(name) ?? k.object.unknown ?? UNDEFINED);
  if (k.bits & ~K.Object) parts.push(UNDEFINED); // a non-object parent yields nothing
  return parts.length ? union(...parts) : UNDEFINED;
}

/** Kind of one element when indexing with a (possibly negative) index. */
export function indexOf(k: Kind, index: number): Kind {
  const parts: Kind[] = [];
  if (k.array) {
    const a = k.array;
    if (index >= 0) parts.push(a.known.get(index) ?? a.unknown ?? UNDEFINED);
    else {
      const exactLength = a.unknown ? undefined : a.known.size;
      if (exactLength !== undefined && exactLength + index >= 0)
        parts.push(a.known.get(exactLength + index) ?? UNDEFINED);
      else parts.push(...a.known.values(), a.unknown ?? UNDEFINED, UNDEFINED);
    }
  }
  if (k.bits & ~K.Array) parts.push(UNDEFINED);
  return parts.length ? union(...parts) : UNDEFINED;
}

/** Every kind an element of a collection may have (for iteration and closures). */
export function elementsOf(k: Kind): Kind {
  const parts: Kind[] = [];
  for (const c of [k.object, k.array] as Array<Collection<unknown> | undefined>) {
    if (!c) continue;
    parts.push(...c.known.values());
    if (c.unknown) parts.push(c.unknown);
  }
  return parts.length ? readable(union(...parts)) : NEVER;
}

/** Whether every value of `inner` is also a value of `outer` (primitive bits only, collections ignored). */
export const isSubset = (inner: Kind, outer: Kind): boolean => (inner.bits & ~outer.bits) === 0;
export const intersects = (a: Kind, b: Kind): boolean => (a.bits & b.bits) !== 0;

const NAMES: Array<[number, string]> = [
  [K.Bytes, 'string'],
  [K.Integer, 'integer'],
  [K.Float, 'float'],
  [K.Boolean, 'boolean'],
  [K.Timestamp, 'timestamp'],
  [K.Regex, 'regex'],
  [K.Null, 'null'],
  [K.Undefined, 'undefined'],
  [K.Array, 'array'],
  [K.Object, 'object'],
];

/** VRL's wording of a kind in messages: `any`, `string`, `string or integer`, `never`. */
export function describe(k: Kind): string {
  if (isAny(k)) return 'any';
  const names = NAMES.filter(([bit]) => k.bits & bit).map(([, name]) => name);
  if (names.length === 0) return 'never';
  if (names.length === 1) return names[0]!;
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** Kind bits of the names used by signatures (`string`, `integer`, ..., `any`). */
export function bitsOf(names: readonly string[]): number {
  let bits = 0;
  for (const name of names) {
    if (name === 'any') return ANY_BITS;
    const found = NAMES.find(([, n]) => n === name);
    if (!found) throw new Error(`unknown kind name: ${name}`);
    bits |= found[0];
  }
  return bits;
}

/** A kind with only primitive bits (collections of anything for array/object bits). */
export function fromBits(bits: number): Kind {
  if ((bits & ANY_BITS) === ANY_BITS) return ANY;
  return {
    bits,
    object: bits & K.Object ? { known: EMPTY, unknown: ANY } : undefined,
    array: bits & K.Array ? { known: EMPTY, unknown: ANY } : undefined,
  };
}

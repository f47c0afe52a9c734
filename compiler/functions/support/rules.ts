// Type rules shared by several function definitions: argument lookups, type assertions, and the
// result kinds of functions that keep or reshape their argument's collection.

import type { ArgInfo, CallInfo } from '../define.js';
import {
  K,
  ANY,
  BYTES,
  INTEGER,
  UNDEFINED,
  arrayOf,
  elementsOf,
  fromBits,
  isAny,
  isSubset,
  objectOf,
  only,
  union,
  without,
  type Collection,
  type Kind,
} from '../../types/kind.js';

/** Kind of an argument; `any` when it is absent (the checker reports missing required ones). */
export const argKind = (call: CallInfo, name: string): Kind => call.args[name]?.kind ?? ANY;

/** Whether an argument's kind is entirely within `bits`. */
const argWithin = (call: CallInfo, name: string, bits: number): boolean => isSubset(argKind(call, name), { bits });

/** The string value of an argument known at compile time. */
export function constantString(arg: ArgInfo | undefined): string | undefined {
  return arg?.constant?.kind === 'string' ? arg.constant.value : undefined;
}

/** The integer value of an argument known at compile time. */
export function constantInteger(arg: ArgInfo | undefined): bigint | undefined {
  return arg?.constant?.kind === 'integer' ? arg.constant.value : undefined;
}

/** Type assertions (`array`, `bool`, `int`...): they fail unless the value already has the asserted kind. */
export const assertionFallible =
  (bits: number) =>
  (call: CallInfo): boolean =>
    !argWithin(call, 'value', bits);

/** Type assertions return the asserted part of the value's kind, or the plain asserted kind. */
export const assertedKind =
  (bits: number) =>
  (call: CallInfo): Kind => {
    const value = argKind(call, 'value');
    return value.bits & bits ? only(value, bits) : fromBits(bits);
  };

/**
 * Functions whose algorithm argument is checked at run time: infallible when it is absent or a
 * literal naming a supported algorithm exactly.
 */
export const fallibleUnlessKnownAlgorithm =
  (param: string, supported: readonly string[]) =>
  (call: CallInfo): boolean => {
    const arg = call.args[param];
    if (!arg) return false;
    const name = constantString(arg);
    return name === undefined || !supported.includes(name);
  };

/** abs, ceil, floor, round: an exactly integer or exactly float argument keeps its kind. */
export function numericResult(call: CallInfo): Kind {
  const value = argKind(call, 'value');
  if (value.bits === K.Integer || value.bits === K.Float) return fromBits(value.bits);
  return fromBits(K.Integer | K.Float);
}

const COLLECTIONS = K.Array | K.Object;

/** compact, filter, flatten: the same collection kind(s) as the value, contents unknown. */
export function sameCollection(call: CallInfo): Kind {
  return fromBits(argKind(call, 'value').bits & COLLECTIONS || COLLECTIONS);
}

/** Closure variables of for_each and filter: the key (object) or index (array), and the element. */
export function keyAndValue(call: CallInfo): Kind[] {
  const value = argKind(call, 'value');
  const keys: Kind[] = [];
  if (value.bits & K.Object) keys.push(BYTES);
  if (value.bits & K.Array) keys.push(INTEGER);
  return [union(...keys), elementsOf(value)];
}

function mapCollection<Key>(c: Collection<Key> | undefined, to: (k: Kind) => Kind): Collection<Key> | undefined {
  if (!c) return undefined;
  const known = new Map<Key, Kind>();
  for (const [key, kind] of c.known) known.set(key, to(kind));
  return { known, unknown: c.unknown && to(c.unknown) };
}

/** `value` with every element (known or not) replaced by `element`: map_values' result. */
export function replaceElements(value: Kind, element: Kind): Kind {
  const collections = value.bits & COLLECTIONS ? only(value, COLLECTIONS) : fromBits(COLLECTIONS);
  return {
    bits: collections.bits,
    object: mapCollection(collections.object, () => element),
    array: mapCollection(collections.array, () => element),
  };
}

/** An object whose keys are no longer known (map_keys renames them); `deep` also forgets nested keys. */
export function forgetKeys(value: Kind, deep: boolean): Kind {
  if (isAny(value)) return ANY;
  const nested = (k: Kind): Kind => (deep ? forgetKeys(k, true) : k);
  const parts: Kind[] = [];
  if (value.object) {
    const { known, unknown } = value.object;
    const elements = [...known.values(), ...(unknown ? [unknown] : [])].map(nested);
    parts.push(objectOf(elements.length ? union(...elements) : undefined));
  }
  const rest = without(value, K.Object);
  if (rest.bits) parts.push(deep ? { ...rest, array: mapCollection(rest.array, nested) } : rest);
  return union(...parts);
}

/** The array `value` with the items of `items` appended: append's result. */
export function appendedArray(value: Kind, items: Kind): Kind {
  const head = value.array ?? { known: new Map<number, Kind>(), unknown: ANY };
  const tail = items.array ?? { known: new Map<number, Kind>(), unknown: ANY };
  if (head.unknown) {
    const tailKinds = [...tail.known.values(), ...(tail.unknown ? [tail.unknown] : [])];
    return arrayOf(union(head.unknown, ...tailKinds), head.known);
  }
  const known = new Map(head.known);
  for (const [index, kind] of tail.known) known.set(head.known.size + index, kind);
  return arrayOf(tail.unknown, known);
}

/**
 * The object `from` merged into `to`: fields of `from` win; with `deep`, fields that are objects on
 * both sides may be merged instead. Fields that may be absent keep the other side's kind as an option.
 */
export function mergedObject(to: Kind, from: Kind, deep: boolean): Kind {
  const a = to.object ?? { known: new Map<string, Kind>(), unknown: ANY };
  const b = from.object ?? { known: new Map<string, Kind>(), unknown: ANY };
  const mergeField = (left: Kind, right: Kind): Kind => {
    const present = without(right, K.Undefined);
    const merged =
      deep && left.bits & K.Object && right.bits & K.Object
        ? union(present, mergedObject(only(left, K.Object), only(right, K.Object), true))
        : present;
    return right.bits & K.Undefined ? union(merged, left) : merged;
  };
  const known = new Map<string, Kind>();
  for (const [key, left] of a.known) {
    const right = b.known.get(key) ?? (b.unknown && union(b.unknown, UNDEFINED));
    known.set(key, right ? mergeField(left, right) : left);
  }
  for (const [key, right] of b.known) {
    if (!a.known.has(key)) known.set(key, mergeField(a.unknown ? union(a.unknown, UNDEFINED) : UNDEFINED, right));
  }
  const unknown = a.unknown && b.unknown ? union(a.unknown, b.unknown) : (a.unknown ?? b.unknown);
  return objectOf(unknown, known);
}

/** Whether an optional boolean flag (default false) may be true: given and not a literal false. */
export function mayBeTrue(arg: ArgInfo | undefined): boolean {
  return arg !== undefined && !(arg.constant?.kind === 'boolean' && !arg.constant.value);
}

// An immutable map whose `set` shares all but one path with the original (a hash array mapped trie).
// The checker's type state gains a field per assignment and joins the states of if/else branches: with
// copied Maps both cost the size of the object, which made checking quadratic in the program's length.
// Iteration follows hash order, not insertion order.

interface Entry<K, V> {
  readonly key: K;
  readonly value: V;
  readonly hash: number;
}
/** Entries whose hashes are equal in all 32 bits. */
type Collision<K, V> = ReadonlyArray<Entry<K, V>>;
interface Branch<K, V> {
  readonly bitmap: number;
  readonly slots: ReadonlyArray<Slot<K, V>>;
}
type Slot<K, V> = Entry<K, V> | Branch<K, V> | Collision<K, V>;

const BITS = 5;
const EMPTY_BRANCH: Branch<never, never> = { bitmap: 0, slots: [] };

const isBranch = <K, V>(slot: Slot<K, V>): slot is Branch<K, V> => 'bitmap' in slot;
const isCollision = <K, V>(slot: Slot<K, V>): slot is Collision<K, V> => Array.isArray(slot);

function hashOf(key: string | number): number {
  if (typeof key === 'number') return Math.imul(key | 0, 0x9e3779b1);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h;
}

function popcount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** A slot holding both entries, at the level below `shift`. */
function pair<K, V>(a: Entry<K, V>, b: Entry<K, V>, shift: number): Slot<K, V> {
  if (shift >= 32) return [a, b];
  const ia = (a.hash >>> shift) & 31;
  const ib = (b.hash >>> shift) & 31;
  if (ia === ib) return { bitmap: 1 << ia, slots: [pair(a, b, shift + BITS)] };
  return { bitmap: (1 << ia) | (1 << ib), slots: ia < ib ? [a, b] : [b, a] };
}

/** `slot` with `entry` in it; `added` tells whether the key is new. The same slot when nothing changes. */
function insert<K, V>(slot: Slot<K, V>, entry: Entry<K, V>, shift: number, added: { value: boolean }): Slot<K, V> {
  if (isCollision(slot)) {
    const at = slot.findIndex((e) => e.key === entry.key);
    if (at < 0) {
      added.value = true;
      return [...slot, entry];
    }
    if (slot[at]!.value === entry.value) return slot;
    return slot.map((e, i) => (i === at ? entry : e));
  }
  if (!isBranch(slot)) {
    if (slot.key !== entry.key) {
      added.value = true;
      return pair(slot, entry, shift);
    }
    return slot.value === entry.value ? slot : entry;
  }
  const bit = 1 << ((entry.hash >>> shift) & 31);
  const index = popcount(slot.bitmap & (bit - 1));
  const slots = [...slot.slots];
  if (!(slot.bitmap & bit)) {
    added.value = true;
    slots.splice(index, 0, entry);
    return { bitmap: slot.bitmap | bit, slots };
  }
  const child = insert(slot.slots[index]!, entry, shift + BITS, added);
  if (child === slot.slots[index]) return slot;
  slots[index] = child;
  return { bitmap: slot.bitmap, slots };
}

function* entriesOf<K, V>(slot: Slot<K, V>): Generator<Entry<K, V>> {
  if (isCollision(slot)) yield* slot;
  else if (isBranch(slot)) for (const child of slot.slots) yield* entriesOf(child);
  else yield slot;
}

/**
 * Calls `visit` for every key whose entry `a` and `b` do not share: present in one only, or with values
 * that may differ. Subtrees both maps share are skipped, so this costs what the maps' changes cost.
 */
function differences<K, V>(
  a: Slot<K, V> | undefined,
  b: Slot<K, V> | undefined,
  shift: number,
  visit: (key: K, a: V | undefined, b: V | undefined) => void,
): void {
  if (a === b) return;
  if (a && b && isBranch(a) && isBranch(b)) {
    for (let bits = a.bitmap | b.bitmap; bits; bits &= bits - 1) {
      const bit = bits & -bits;
      const childA = a.bitmap & bit ? a.slots[popcount(a.bitmap & (bit - 1))] : undefined;
      const childB = b.bitmap & bit ? b.slots[popcount(b.bitmap & (bit - 1))] : undefined;
      differences(childA, childB, shift + BITS, visit);
    }
    return;
  }
  const inB = new Map<K, V>();
  if (b) for (const e of entriesOf(b)) inB.set(e.key, e.value);
  if (a) {
    for (const e of entriesOf(a)) {
      const other = inB.get(e.key);
      if (other !== e.value || !inB.has(e.key)) visit(e.key, e.value, inB.has(e.key) ? other : undefined);
      inB.delete(e.key);
    }
  }
  for (const [key, value] of inB) visit(key, undefined, value);
}

export class PersistentMap<K extends string | number, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly root: Branch<K, V>,
    readonly size: number,
  ) {}

  static empty<K extends string | number, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(EMPTY_BRANCH, 0);
  }

  /** The map itself when it is persistent; a copy otherwise (once: later changes share it). */
  static from<K extends string | number, V>(map: ReadonlyMap<K, V>): PersistentMap<K, V> {
    if (map instanceof PersistentMap) return map;
    let out = PersistentMap.empty<K, V>();
    for (const [key, value] of map) out = out.set(key, value);
    return out;
  }

  set(key: K, value: V): PersistentMap<K, V> {
    const added = { value: false };
    const root = insert<K, V>(this.root, { key, value, hash: hashOf(key) }, 0, added) as Branch<K, V>;
    return root === this.root ? this : new PersistentMap(root, this.size + (added.value ? 1 : 0));
  }

  get(key: K): V | undefined {
    return this.find(key)?.value;
  }

  has(key: K): boolean {
    return this.find(key) !== undefined;
  }

  private find(key: K): Entry<K, V> | undefined {
    const hash = hashOf(key);
    let slot: Slot<K, V> = this.root;
    for (let shift = 0; ; shift += BITS) {
      if (isCollision(slot)) return slot.find((e) => e.key === key);
      if (!isBranch(slot)) return slot.key === key ? slot : undefined;
      const bit = 1 << ((hash >>> shift) & 31);
      if (!(slot.bitmap & bit)) return undefined;
      slot = slot.slots[popcount(slot.bitmap & (bit - 1))]!;
    }
  }

  /** Like `differences` above, for the keys where this map and `other` differ. */
  differences(other: PersistentMap<K, V>, visit: (key: K, mine: V | undefined, theirs: V | undefined) => void): void {
    differences<K, V>(this.root, other.root, 0, visit);
  }

  *entries(): MapIterator<[K, V]> {
    for (const e of entriesOf<K, V>(this.root)) yield [e.key, e.value];
  }
  *keys(): MapIterator<K> {
    for (const e of entriesOf<K, V>(this.root)) yield e.key;
  }
  *values(): MapIterator<V> {
    for (const e of entriesOf<K, V>(this.root)) yield e.value;
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const e of entriesOf<K, V>(this.root)) callback(e.value, e.key, this);
  }
}

// Kinds along paths: what a path reads from a root kind and what the root becomes when a path is
// assigned or deleted. Shared by the checker (progressive state) and type rules of path-taking functions.

import type { PathSegment } from '../ast.js';
import { PersistentMap } from './persistent-map.js';
import { ANY, K, NULL, UNDEFINED, arrayOf, fieldOf, indexOf, objectOf, union, without, type Kind } from './kind.js';

/**
 * Skipped indexes an assignment records as null, one entry each, as VRL does (`x = []; x[2] = 1` knows
 * 0 and 1 as null). Past this many they become the kind of the array's other entries (null), which reads
 * the same without an entry per index: `.a[4294967297] = 1` would need billions.
 */
const MAX_NULL_INDEXES = 1024;

/** Kind found at a path (may include `undefined` where the path may not exist). */
export function kindAt(root: Kind, path: readonly PathSegment[]): Kind {
  let k = root;
  for (const seg of path) {
    switch (seg.kind) {
      case 'field':
        k = fieldOf(k, seg.name);
        break;
      case 'index':
        k = indexOf(k, seg.index);
        break;
      case 'coalesce':
        k = union(...seg.fields.map((f) => fieldOf(k, f)));
        break;
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
      let unknown = current.unknown;
      // Skipped indexes become null; with a kind for unknown entries they already have one.
      if (!unknown) {
        const skipped = seg.index - [...known.keys()].filter((i) => i < seg.index).length;
        if (skipped > MAX_NULL_INDEXES) unknown = NULL;
        else for (let i = 0; i < seg.index; i++) if (!known.has(i)) known.set(i, NULL);
      }
      known.set(seg.index, assignAt(indexOf(root, seg.index), rest, value));
      return arrayOf(unknown, known);
    }
  }
}

function setField(root: Kind, name: string, value: Kind): Kind {
  const current = root.object;
  const known = current ? PersistentMap.from(current.known) : PersistentMap.empty<string, Kind>();
  return objectOf(current?.unknown, known.set(name, value));
}

/** The root kind after `del(path)`. */
export function deleteAt(root: Kind, path: readonly PathSegment[]): Kind {
  if (path.length === 0) return objectOf(undefined);
  const [seg, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (seg.kind === 'field' && root.object) {
    let known = PersistentMap.from(root.object.known);
    // VRL reads a deleted field as `any` afterwards, whatever it knew of its parent.
    if (rest.length === 0) known = known.set(seg.name, ANY);
    else if (known.has(seg.name)) known = known.set(seg.name, deleteAt(known.get(seg.name)!, rest));
    return { ...root, object: { known, unknown: root.object.unknown } };
  }
  if (seg.kind === 'index' && root.array && rest.length > 0 && root.array.known.has(seg.index)) {
    const known = new Map(root.array.known);
    known.set(seg.index, deleteAt(known.get(seg.index)!, rest));
    return { ...root, array: { known, unknown: root.array.unknown } };
  }
  // Removing an array element shifts the rest: only the element kinds stay known.
  if (seg.kind === 'index' && root.array && rest.length === 0) {
    return {
      ...root,
      array: { known: new Map(), unknown: union(...root.array.known.values(), root.array.unknown ?? UNDEFINED) },
    };
  }
  return root;
}

/** Kind of a parent container that cannot take the segment: not null/undefined and not the container needed. */
export function rejectsSegment(parent: Kind, seg: PathSegment): boolean {
  const defined = without(parent, K.Null | K.Undefined);
  if (defined.bits === 0) return false;
  return seg.kind === 'index' ? !(defined.bits & K.Array) : !(defined.bits & K.Object);
}

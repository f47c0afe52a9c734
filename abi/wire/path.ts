// Path descriptors (docs/abi.md §7): written by the compiler's constants and the codec module's options, read by
// stdlib-as/path.ts. Shared by tsc and asc (see values.ts).

/** A path descriptor's segment kinds (stdlib-as/path.ts): u32 count, then per segment its kind and data. */
export const enum PathSegmentKind {
  /** u32 length, UTF-8 bytes padded to 4. */
  Field = 0,
  /** i64, low word first. */
  Index = 1,
  /** u32 n, then n fields: the first that exists. */
  Coalesce = 2,
}

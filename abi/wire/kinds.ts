// VRL's kinds as bits: the compiler's type lattice (compiler/types/kind.ts) and the stdlib's run-time
// argument checks (stdlib-as/functions/support/args.ts). Shared by tsc and asc (see values.ts).

export const enum KindBit {
  Bytes = 1,
  Integer = 2,
  Float = 4,
  Boolean = 8,
  Timestamp = 16,
  Regex = 32,
  Null = 64,
  Array = 128,
  Object = 256,
  /** Compiler only: inside collections and for paths that may not exist; reads turn it into null. */
  Undefined = 512,
}

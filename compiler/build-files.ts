// Files of the build the compiler reads, located from this module: it sits one directory below dist/, as
// the CLI bundle's chunks (dist/bin/) do, so the same relative URLs hold whether the compiler runs from
// dist/compiler/ or bundled.

/** The AssemblyScript standard library every program is linked with. */
export const STDLIB_URL = new URL('../stdlib.wasm', import.meta.url);

/** The build's split of binaryen (scripts/split-binaryen.mjs): its glue and binaryen.wasm. */
export const BINARYEN_SPLIT_URL = new URL('../binaryen/', import.meta.url);

// The stdlib-backed remap functions: one module per function, each exporting `fn_<name>` (docs/abi.md §8).

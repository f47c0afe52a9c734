// The stdlib-backed remap functions: one module per function, each exporting `fn_<name>` (docs/abi.md §8).
export * from './from_unix_timestamp';
export * from './now';
export * from './parse_syslog';
export * from './to_unix_timestamp';

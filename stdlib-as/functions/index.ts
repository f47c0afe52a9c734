// The stdlib-backed remap functions: one module per function, each exporting `fn_<name>` (docs/abi.md §8).
export { fn_upcase } from './upcase';
export { fn_downcase } from './downcase';
export { fn_contains } from './contains';
export { fn_starts_with } from './starts_with';
export { fn_ends_with } from './ends_with';
export { fn_slice } from './slice';
export { fn_split } from './split';
export { fn_join } from './join';
export { fn_replace } from './replace';
export { fn_strip_whitespace } from './strip_whitespace';
export { fn_truncate } from './truncate';
export { fn_parse_int } from './parse_int';
export { fn_parse_float } from './parse_float';
export { fn_parse_key_value } from './parse_key_value';

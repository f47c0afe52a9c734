// The stdlib-backed remap functions: one module per function, each exporting `fn_<name>` (docs/abi.md §8).
export { fn_parse_json } from './parse_json';
export { fn_encode_json } from './encode_json';

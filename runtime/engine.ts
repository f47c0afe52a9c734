// The runtime's second entry, for svc's own packages (host/, cli/): what the pipeline and the CLI use beyond
// the library API of ./index.ts — batches read and written in place, the codec module, and the libraries the
// pipeline shares with remap functions. Kept apart so the npm package's API does not grow by these, and so
// `svc vrl` and its threads, which need only ./index.ts, do not load them.

export {
  BatchReader,
  BatchWriter,
  compareInPlace,
  enterField,
  enterIndex,
  complement,
  pickRecords,
  recordEnds,
  splitByBitmap,
  withField,
  withoutField,
  writeEdited,
  type FieldEdit,
  type RecordCursor,
  type RecordView,
  type ValuePath,
} from './batch-io.js';
export { compilerVersion } from './cache.js';
export {
  CodecModule,
  parseFieldPath,
  type DecodeFraming,
  type DecodeOptions,
  type EncodeFraming,
  type EncodeOptions,
  type LogNamespace,
} from './codec-module.js';
export { displayFloat } from './display.js';
export { MAX_MEMORY_LIMIT, MIN_MEMORY_LIMIT, type FramedOutput } from './module.js';
export { UTC } from './time-zones.js';
export { ReplSession } from './repl.js';
export { seahash } from './seahash.js';
export { lossyText, rustDebugString } from './text.js';
/** zstd, loaded on first use: its wasm build initializes at import, a 16 MiB memory in every thread that loads it. */
export const loadZstd = (): Promise<typeof import('./zstd.js')> => import('./zstd.js');

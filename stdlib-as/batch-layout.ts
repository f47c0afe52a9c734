// Writing the batch header (docs/abi.md §2), shared by the program drivers (run.ts) and the codec module.

import { ABI_VERSION, BATCH_MAGIC, BatchHeaderField } from '../abi/wire/batch';

/** Writes "SVCB", the ABI version, `flags` and `count` at `header`. */
export function writeBatchHeader(header: usize, flags: u16, count: u32): void {
  store<u32>(header, BATCH_MAGIC);
  store<u16>(header, ABI_VERSION, BatchHeaderField.Version);
  store<u16>(header, flags, BatchHeaderField.Flags);
  store<u32>(header, count, BatchHeaderField.Count);
}

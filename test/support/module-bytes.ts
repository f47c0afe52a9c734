// Hand-made wasm binaries for tests of module loading: custom sections appended to a module's bytes.
import { ABI_VERSION } from '../../abi/batch.js';

/** LEB128 of an unsigned integer. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n ? byte | 0x80 : byte);
  } while (n);
  return out;
}

/** Appends custom sections to a wasm binary (by default an empty module). */
export function emptyModule(
  sections: Record<string, string | Uint8Array> = {},
  wasm = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
): Uint8Array {
  const bytes = [...wasm];
  for (const [name, content] of Object.entries(sections)) {
    const body = [...leb(Buffer.byteLength(name)), ...Buffer.from(name), ...Buffer.from(content)];
    bytes.push(0, ...leb(body.length), ...body);
  }
  return new Uint8Array(bytes);
}

/** A well-formed `svc` section's content. */
export const info = {
  abi: ABI_VERSION,
  compiler: '0.1.0',
  source: '.a = 1',
  options: { timezone: 'UTC' },
  jsFunctions: [],
};

/** An empty module whose `svc` section is `info` with `fields` changed. */
export const withInfo = (fields: object) => emptyModule({ svc: JSON.stringify({ ...info, ...fields }) });

// Types of the libraries without their own (LZ4, Snappy, UTS 46, punycode), for what the remap functions use.

declare module 'lz4js' {
  /** Compresses `src[sIndex, sIndex + sLength)` as one LZ4 block into `dst`; 0 when it found no match at all. */
  export function compressBlock(
    src: Uint8Array,
    dst: Uint8Array,
    sIndex: number,
    sLength: number,
    hashTable: Uint32Array,
  ): number;
  export function compressBound(n: number): number;
}

declare module 'lz4js/xxh32.js' {
  /** XXH32 of `src[index, index + length)`. */
  export function hash(seed: number, src: Uint8Array, index: number, length: number): number;
}

declare module 'snappyjs' {
  export function compress(uncompressed: Uint8Array): Uint8Array;
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}

declare module 'tr46' {
  interface Options {
    checkHyphens?: boolean;
    checkBidi?: boolean;
    checkJoiners?: boolean;
    useSTD3ASCIIRules?: boolean;
    verifyDNSLength?: boolean;
    transitionalProcessing?: boolean;
  }
  /** The ASCII form, or null when a checked rule fails. */
  export function toASCII(domain: string, options?: Options): string | null;
  export function toUnicode(domain: string, options?: Options): { domain: string; error: boolean };
}

declare module 'punycode/punycode.js' {
  const punycode: {
    /** The code points of a punycode label (without `xn--`); throws on invalid input. */
    decode(input: string): string;
  };
  export default punycode;
}

// A small MaxMind DB (MMDB) writer for tests: a search tree of 24-bit records over the networks given, the
// data section (each network's record encoded once), then the metadata after "\xAB\xCD\xEFMaxMind.com".
// IPv4 networks in an IPv6 database live under ::/96, as MaxMind's do.

import { isIPv4 } from 'node:net';

/** A value written as an MMDB double (a JS number that is an integer is written as an integer). */
export class MmdbDouble {
  constructor(readonly value: number) {}
}

type MmdbValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | MmdbDouble
  | MmdbValue[]
  | { [key: string]: MmdbValue };

export interface MmdbDatabase {
  databaseType: string;
  ipVersion: 4 | 6;
  /** `1.2.3.0/24` or `2001:db8::/32`, and its record. */
  networks: ReadonlyArray<{ network: string; record: MmdbValue }>;
  languages?: string[];
}

interface TrieNode {
  children: [TrieNode | number | undefined, TrieNode | number | undefined];
}

/** The bytes of an MMDB file holding `database`. */
export function writeMmdb(database: MmdbDatabase): Uint8Array {
  const data: number[] = [];
  const root: TrieNode = { children: [undefined, undefined] };
  for (const { network, record } of database.networks) {
    const offset = data.length;
    data.push(...encodeValue(record));
    const [address, prefix] = addressBits(network, database.ipVersion);
    let node = root;
    for (let bit = 0; bit < prefix - 1; bit++) {
      const side = address[bit]!;
      let next = node.children[side];
      if (typeof next !== 'object') node.children[side] = next = { children: [undefined, undefined] };
      node = next;
    }
    node.children[address[prefix - 1]!] = offset;
  }
  // Nodes numbered breadth first, the root 0.
  const nodes: TrieNode[] = [root];
  for (let i = 0; i < nodes.length; i++)
    for (const child of nodes[i]!.children) if (typeof child === 'object') nodes.push(child);
  const count = nodes.length;
  const tree: number[] = [];
  for (const node of nodes) {
    for (const child of node.children) {
      const record =
        child === undefined ? count : typeof child === 'number' ? count + 16 + child : nodes.indexOf(child);
      tree.push((record >> 16) & 0xff, (record >> 8) & 0xff, record & 0xff);
    }
  }
  const metadata = encodeValue({
    node_count: count,
    record_size: 24,
    ip_version: database.ipVersion,
    database_type: database.databaseType,
    languages: database.languages ?? ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000n,
    description: { en: `${database.databaseType} test database` },
  });
  return Uint8Array.from([
    ...tree,
    ...new Array(16).fill(0),
    ...data,
    0xab,
    0xcd,
    0xef,
    ...Buffer.from('MaxMind.com'),
    ...metadata,
  ]);
}

/** The network's address as bits, and its prefix length in the tree. */
function addressBits(network: string, ipVersion: 4 | 6): [number[], number] {
  const [address, length] = network.split('/') as [string, string];
  let bytes: number[];
  let prefix = Number(length);
  if (isIPv4(address)) {
    bytes = address.split('.').map(Number);
    if (ipVersion === 6) {
      bytes = [...new Array(12).fill(0), ...bytes];
      prefix += 96;
    }
  } else {
    const [head, tail = ''] = address.split('::') as [string, string?];
    const groups = (text: string) => (text === '' ? [] : text.split(':').map((group) => Number.parseInt(group, 16)));
    const left = groups(head);
    const right = groups(tail);
    const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
    bytes = all.flatMap((group) => [group >> 8, group & 0xff]);
  }
  return [bytes.flatMap((byte) => Array.from({ length: 8 }, (_, bit) => (byte >> (7 - bit)) & 1)), prefix];
}

const TYPES = { string: 2, double: 3, bytes: 4, uint32: 6, map: 7, int32: 8, uint64: 9, array: 11, boolean: 14 };

function control(type: number, size: number): number[] {
  const [sizeBits, extra] =
    size < 29
      ? [size, []]
      : size < 285
        ? [29, [size - 29]]
        : size < 65_821
          ? [30, [(size - 285) >> 8, (size - 285) & 0xff]]
          : [31, [((size - 65_821) >> 16) & 0xff, ((size - 65_821) >> 8) & 0xff, (size - 65_821) & 0xff]];
  return type <= 7 ? [(type << 5) | sizeBits, ...extra] : [sizeBits, type - 7, ...extra];
}

function unsignedBytes(value: bigint): number[] {
  const bytes: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 8n) bytes.unshift(Number(rest & 0xffn));
  return bytes;
}

function encodeValue(value: MmdbValue): number[] {
  if (typeof value === 'string') {
    const bytes = [...Buffer.from(value)];
    return [...control(TYPES.string, bytes.length), ...bytes];
  }
  if (typeof value === 'boolean') return control(TYPES.boolean, value ? 1 : 0);
  if (typeof value === 'bigint') {
    const bytes = unsignedBytes(value);
    return [...control(TYPES.uint64, bytes.length), ...bytes];
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return encodeValue(new MmdbDouble(value));
    if (value < 0) {
      const bytes = [...Buffer.alloc(4)].map((_, i) => ((value | 0) >> (24 - 8 * i)) & 0xff);
      return [...control(TYPES.int32, 4), ...bytes];
    }
    const bytes = unsignedBytes(BigInt(value));
    return [...control(TYPES.uint32, bytes.length), ...bytes];
  }
  if (value instanceof MmdbDouble) {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value.value);
    return [...control(TYPES.double, 8), ...bytes];
  }
  if (value instanceof Uint8Array) return [...control(TYPES.bytes, value.length), ...value];
  if (Array.isArray(value)) return [...control(TYPES.array, value.length), ...value.flatMap(encodeValue)];
  const entries = Object.entries(value);
  return [
    ...control(TYPES.map, entries.length),
    ...entries.flatMap(([key, inner]) => [...encodeValue(key), ...encodeValue(inner)]),
  ];
}

// community_id(source_ip, destination_ip, protocol, source_port, destination_port, seed = 0): the Community ID
// v1 flow hash (corelight/community-id-spec): `1:` and the Base64 SHA-1 of seed, the ordered endpoints,
// protocol and ports. ICMP and ICMPv6 types and codes stand in for ports, request and reply types paired.

import { createHash } from 'node:crypto';
import type { JsFunction } from '../imports.js';
import { parseIp } from './support/ip-address.js';
import { integerArg, stringArg } from './support/args.js';
import type { RemapValue } from '../../abi/values.js';

const ICMP = 1;
const ICMP6 = 58;
const PORT_PROTOCOLS = new Set([6, 17, 132, ICMP, ICMP6]); // TCP, UDP, SCTP and the ICMPs

/** ICMP message types and the type of their counterpart (the spec's "port equivalents"). */
const ICMP_COUNTERPARTS: Readonly<Record<number, Readonly<Record<number, number>>>> = {
  [ICMP]: { 8: 0, 0: 8, 13: 14, 14: 13, 15: 16, 16: 15, 10: 9, 9: 10, 17: 18, 18: 17 },
  [ICMP6]: {
    128: 129,
    129: 128,
    133: 134,
    134: 133,
    135: 136,
    136: 135,
    130: 131,
    131: 130,
    139: 140,
    140: 139,
    144: 145,
    145: 144,
  },
};

function address(value: RemapValue): Uint8Array {
  const text = stringArg(value);
  const bytes = parseIp(text);
  if (bytes === undefined) throw new Error('unable to parse IP address: invalid IP address syntax');
  return bytes;
}

function u16(value: RemapValue, name: string): number | undefined {
  if (value === null) return undefined;
  const n = integerArg(value, 0n);
  if (n < 0n || n > 0xffffn) throw new Error(`${name} must be between 0 and 65535`);
  return Number(n);
}

/** Whether endpoint a sorts before b (address bytes, then port). */
function ordered(a: Uint8Array, aPort: number, b: Uint8Array, bPort: number): boolean {
  const c = Buffer.compare(a, b);
  return c < 0 || (c === 0 && aPort <= bPort);
}

export const community_id: JsFunction = ([sourceIp, destinationIp, protocol, sourcePort, destinationPort, seed]) => {
  let source = address(sourceIp!);
  let destination = address(destinationIp!);
  if (source.length !== destination.length)
    throw new Error('source and destination IP addresses must be of the same family');
  const proto = integerArg(protocol!, 0n);
  if (proto < 0n || proto > 255n) throw new Error('protocol must be between 0 and 255');
  const seedValue = u16(seed!, 'seed') ?? 0;
  let sport = u16(sourcePort!, 'source port');
  let dport = u16(destinationPort!, 'destination port');
  const hasPorts = PORT_PROTOCOLS.has(Number(proto)) && sport !== undefined && dport !== undefined;
  if (PORT_PROTOCOLS.has(Number(proto)) && (sport === undefined) !== (dport === undefined)) {
    throw new Error('source port and destination port must both be given or both be absent');
  }
  let oneWay = false;
  const counterparts = ICMP_COUNTERPARTS[Number(proto)];
  if (hasPorts && counterparts) {
    const counterpart = counterparts[sport!];
    if (counterpart === undefined) oneWay = true;
    else dport = counterpart;
  }
  if (hasPorts && !oneWay && !ordered(source, sport!, destination, dport!)) {
    [source, destination, sport, dport] = [destination, source, dport, sport];
  } else if (!hasPorts && Buffer.compare(source, destination) > 0) {
    [source, destination] = [destination, source];
  }
  const hash = createHash('sha1');
  const head = Buffer.alloc(2);
  head.writeUInt16BE(seedValue);
  hash
    .update(head)
    .update(source)
    .update(destination)
    .update(Buffer.from([Number(proto), 0]));
  if (hasPorts) {
    const ports = Buffer.alloc(4);
    ports.writeUInt16BE(sport!, 0);
    ports.writeUInt16BE(dport!, 2);
    hash.update(ports);
  }
  return `1:${hash.digest('base64')}`;
};

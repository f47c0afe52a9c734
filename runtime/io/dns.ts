// The DNS client of `dns_lookup`, run in the I/O worker: one query over UDP (with an EDNS OPT record, as
// hickory-resolver sends it) to each server in turn, and the reply decoded into VRL's result object
// (`header`, `question`, `answers`, `authority`, `additional`, `rcodeName`, `fullRcode`). Record data is
// written as hickory displays it.

import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import type { IoRequest } from '../blocking-io.js';
import type { RemapValue } from '../../abi/values.js';

type DnsRequest = Extract<IoRequest, { op: 'dns' }>;

/** Record types by name (the ones `qtype` accepts) and number. */
const RECORD_TYPES: Record<string, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  NULL: 10,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  TLSA: 52,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
  ANY: 255,
  AXFR: 252,
  IXFR: 251,
};
const TYPE_NAMES = new Map(Object.entries(RECORD_TYPES).map(([name, id]) => [id, name]));
const CLASSES: Record<string, number> = { IN: 1, CH: 3, HS: 4, NONE: 254, ANY: 255 };
const CLASS_NAMES = new Map(Object.entries(CLASSES).map(([name, id]) => [id, name]));
const RCODE_NAMES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];

const typeName = (id: number) => TYPE_NAMES.get(id) ?? `Unknown(${id})`;
const className = (id: number) => CLASS_NAMES.get(id) ?? `Unknown(${id})`;

export async function dnsLookup(request: DnsRequest): Promise<RemapValue> {
  const qtype = RECORD_TYPES[request.qtype.toUpperCase()];
  if (qtype === undefined) throw new Error(`unknown record type: ${request.qtype}`);
  const qclass = CLASSES[request.qclass.toUpperCase()];
  if (qclass === undefined) throw new Error(`unknown class: ${request.qclass}`);
  const query = encodeQuery(request.name, qtype, qclass);
  let lastError: unknown = new Error('no name servers');
  for (let attempt = 0; attempt < Math.max(1, request.attempts); attempt++) {
    for (const server of request.servers) {
      try {
        return decodeResponse(await exchange(query, server, request.timeoutMs));
      } catch (error) {
        lastError = error;
      }
    }
  }
  throw lastError;
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
function parseServer(server: string): { host: string; port: number } {
  if (isIP(server) === 6) return { host: server, port: 53 };
  const m = /^\[(.+)\](?::(\d+))?$/.exec(server) ?? /^([^:]+)(?::(\d+))?$/.exec(server);
  if (!m) throw new Error(`invalid name server: ${server}`);
  return { host: m[1]!, port: m[2] === undefined ? 53 : Number(m[2]) };
}

function exchange(query: Buffer, server: string, timeoutMs: number): Promise<Buffer> {
  const { host, port } = parseServer(server);
  const socket = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from ${server} within ${timeoutMs} ms`)), timeoutMs);
    socket.on('message', (message) => {
      if (message.length >= 2 && message.readUInt16BE(0) === query.readUInt16BE(0)) {
        clearTimeout(timer);
        resolve(message);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.send(query, port, host);
  }).finally(() => socket.close());
}

function encodeName(name: string): Buffer {
  const labels = name
    .replace(/\.$/, '')
    .split('.')
    .filter((label) => label !== '');
  const parts: Buffer[] = [];
  for (const label of labels) {
    const bytes = Buffer.from(label);
    if (bytes.length > 63) throw new Error(`label too long: ${label}`);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

function encodeQuery(name: string, qtype: number, qclass: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(randomInt(0x10000), 0);
  header.writeUInt16BE(0x0100, 2); // recursion desired
  header.writeUInt16BE(1, 4); // one question
  header.writeUInt16BE(1, 10); // one additional: the OPT record
  const question = Buffer.alloc(4);
  question.writeUInt16BE(qtype, 0);
  question.writeUInt16BE(qclass, 2);
  // OPT: root name, type 41, UDP payload size 1232, extended rcode and flags 0, no options.
  const opt = Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, encodeName(name), question, opt]);
}

/** Reads DNS wire format, following name compression pointers. */
class Reader {
  constructor(
    readonly message: Buffer,
    public at = 0,
  ) {}

  u8(): number {
    return this.message.readUInt8(this.at++);
  }
  u16(): number {
    const v = this.message.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  u32(): number {
    const v = this.message.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  bytes(n: number): Buffer {
    if (this.at + n > this.message.length) throw new Error('truncated DNS message');
    const b = this.message.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  /** A domain name as hickory writes it: labels joined by dots, with the final dot. */
  name(): string {
    const labels: string[] = [];
    let at = this.at;
    let jumped = false;
    for (let hops = 0; hops < 128; hops++) {
      const length = this.message.readUInt8(at);
      if (length === 0) {
        if (!jumped) this.at = at + 1;
        return labels.length === 0 ? '.' : `${labels.join('.')}.`;
      }
      if ((length & 0xc0) === 0xc0) {
        const target = this.message.readUInt16BE(at) & 0x3fff;
        if (!jumped) this.at = at + 2;
        jumped = true;
        at = target;
        continue;
      }
      labels.push(this.message.subarray(at + 1, at + 1 + length).toString('latin1'));
      at += 1 + length;
    }
    throw new Error('DNS name compression loop');
  }
}

/** `name.` without its final dot (the root is the empty name), as VRL writes domain names. */
const domainName = (fqdn: string) => (fqdn === '.' ? '' : fqdn.replace(/\.$/, ''));

function decodeResponse(message: Buffer): RemapValue {
  const r = new Reader(message);
  r.u16(); // id
  const flags = r.u16();
  const counts = [r.u16(), r.u16(), r.u16(), r.u16()];
  const question: RemapValue[] = [];
  for (let i = 0; i < counts[0]!; i++) {
    const name = r.name();
    const type = r.u16();
    const klass = r.u16();
    question.push({
      class: className(klass),
      domainName: domainName(name),
      questionType: typeName(type),
      questionTypeId: BigInt(type),
    });
  }
  const sections = counts.slice(1).map((count) => Array.from({ length: count }, () => decodeRecord(r)));
  const opt = sections[2]!.find((record) => record.recordTypeId === 41n);
  const rcode = flags & 0xf;
  // The OPT record's TTL carries the upper 8 bits of the extended rcode.
  const fullRcode = rcode | (opt === undefined ? 0 : (Number(optTtl.get(opt) ?? 0) >>> 24) << 4);
  return {
    additional: sections[2]!,
    answers: sections[0]!,
    authority: sections[1]!,
    fullRcode: BigInt(fullRcode),
    header: {
      aa: (flags & 0x0400) !== 0,
      ad: (flags & 0x0020) !== 0,
      anCount: BigInt(counts[1]!),
      arCount: BigInt(counts[3]!),
      cd: (flags & 0x0010) !== 0,
      nsCount: BigInt(counts[2]!),
      opcode: BigInt((flags >> 11) & 0xf),
      qdCount: BigInt(counts[0]!),
      qr: (flags & 0x8000) !== 0,
      ra: (flags & 0x0080) !== 0,
      rcode: BigInt(rcode),
      rd: (flags & 0x0100) !== 0,
      tc: (flags & 0x0200) !== 0,
    },
    question,
    rcodeName: RCODE_NAMES[fullRcode] ?? `Unknown(${fullRcode})`,
  };
}

type DnsRecord = { [key: string]: RemapValue; recordTypeId: bigint };
/** The raw TTL field of OPT records (extended rcode, version, flags). */
const optTtl = new WeakMap<DnsRecord, number>();

function decodeRecord(r: Reader): DnsRecord {
  const name = r.name();
  const type = r.u16();
  const klass = r.u16();
  const ttl = r.u32();
  const length = r.u16();
  const end = r.at + length;
  const rData = type === 41 ? 'OPT ...' : recordData(r, type, length);
  r.at = end;
  const record: DnsRecord = {
    class: type === 41 ? `Unknown(${klass})` : className(klass),
    domainName: domainName(name),
    rData,
    recordType: typeName(type),
    recordTypeId: BigInt(type),
    ttl: BigInt(type === 41 ? 0 : ttl),
  };
  if (type === 41) optTtl.set(record, ttl);
  return record;
}

function recordData(r: Reader, type: number, length: number): string {
  const start = r.at;
  switch (type) {
    case 1:
      return [...r.bytes(4)].join('.');
    case 28:
      return ipv6Text(r.bytes(16));
    case 2:
    case 5:
    case 12:
      return r.name();
    case 15:
      return `${r.u16()} ${r.name()}`;
    case 6:
      return `${r.name()} ${r.name()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`;
    case 33:
      return `${r.u16()} ${r.u16()} ${r.u16()} ${r.name()}`;
    case 16: {
      const strings: string[] = [];
      while (r.at < start + length) strings.push(r.bytes(r.u8()).toString('utf8'));
      return strings.join('');
    }
  }
  return `\\# ${length} ${r.bytes(length).toString('hex')}`;
}

function ipv6Text(bytes: Buffer): string {
  const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2));
  // The longest run of two or more zero groups becomes `::` (RFC 5952).
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

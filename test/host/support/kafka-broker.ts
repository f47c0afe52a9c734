// A one-node Kafka broker on a loopback port, for the kafka source and sink tests: no Kafka server exists as a
// Debian or npm package. It speaks the wire protocol (request header v1, the fixed versions it advertises
// through ApiVersions) and checks what it is sent: a produced record batch must be magic 2 with a correct
// CRC-32C and length, or the produce fails with CORRUPT_MESSAGE. Topics are created on first use with
// `partitions` partitions and keep the produced batches as they came, offsets assigned. Consumer groups do
// what clients rely on: JoinGroup waits until every known member joined (or the rebalance timeout passed),
// the leader's SyncGroup assignment is handed to each member, heartbeats answer REBALANCE_IN_PROGRESS while a
// rebalance is due, a member silent for its session timeout is removed, and offsets are committed per group.

import { createServer, type Server, type Socket } from 'node:net';

const API = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  ApiVersions: 18,
} as const;

/** The versions served: [min, max] per API key. */
const VERSIONS: Record<number, [number, number]> = {
  [API.Produce]: [3, 3],
  [API.Fetch]: [4, 4],
  [API.ListOffsets]: [1, 1],
  [API.Metadata]: [0, 0],
  [API.OffsetCommit]: [2, 2],
  [API.OffsetFetch]: [1, 1],
  [API.FindCoordinator]: [0, 0],
  [API.JoinGroup]: [0, 0],
  [API.Heartbeat]: [0, 0],
  [API.LeaveGroup]: [0, 0],
  [API.SyncGroup]: [0, 0],
  [API.ApiVersions]: [0, 2],
};

const ERROR = {
  none: 0,
  corruptMessage: 2,
  unknownTopicOrPartition: 3,
  illegalGeneration: 22,
  unknownMemberId: 25,
  rebalanceInProgress: 27,
  unsupportedVersion: 35,
} as const;

// ---- wire primitives ----------------------------------------------------------------------------------------

class Reader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}
  int8 = () => this.bytes.readInt8((this.at += 1) - 1);
  int16 = () => this.bytes.readInt16BE((this.at += 2) - 2);
  int32 = () => this.bytes.readInt32BE((this.at += 4) - 4);
  int64 = () => this.bytes.readBigInt64BE((this.at += 8) - 8);
  string = (): string | null => {
    const length = this.int16();
    if (length < 0) return null;
    return this.bytes.toString('utf8', this.at, (this.at += length));
  };
  bytesField = (): Buffer | null => {
    const length = this.int32();
    if (length < 0) return null;
    return this.bytes.subarray(this.at, (this.at += length));
  };
  array = <T>(item: () => T): T[] => {
    const count = this.int32();
    return Array.from({ length: Math.max(0, count) }, item);
  };
}

class Writer {
  private readonly parts: Buffer[] = [];
  private fixed(size: number, write: (buffer: Buffer) => void): this {
    const buffer = Buffer.alloc(size);
    write(buffer);
    this.parts.push(buffer);
    return this;
  }
  int8 = (value: number) => this.fixed(1, (b) => b.writeInt8(value));
  int16 = (value: number) => this.fixed(2, (b) => b.writeInt16BE(value));
  int32 = (value: number) => this.fixed(4, (b) => b.writeInt32BE(value));
  int64 = (value: bigint) => this.fixed(8, (b) => b.writeBigInt64BE(value));
  string = (value: string | null) => {
    if (value === null) return this.int16(-1);
    const bytes = Buffer.from(value);
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  };
  bytes = (value: Buffer | null) => {
    if (value === null) return this.int32(-1);
    this.int32(value.length);
    this.parts.push(value);
    return this;
  };
  array = <T>(items: readonly T[], item: (writer: this, value: T) => void) => {
    this.int32(items.length);
    for (const value of items) item(this, value);
    return this;
  };
  finish = () => Buffer.concat(this.parts);
}

const CRC32C_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32c(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// ---- state ---------------------------------------------------------------------------------------------------

interface StoredBatch {
  baseOffset: bigint;
  lastOffset: bigint;
  bytes: Buffer;
}

interface Member {
  id: string;
  sessionTimeoutMs: number;
  protocols: Array<{ name: string; metadata: Buffer }>;
  lastSeen: number;
}

interface JoinReply {
  errorCode: number;
  generationId: number;
  protocol: string;
  leaderId: string;
  memberId: string;
  members: Array<{ id: string; metadata: Buffer }>;
}

class Group {
  members = new Map<string, Member>();
  generation = 0;
  leader = '';
  protocol = '';
  /** Members to hear from before the next generation starts; undefined while stable. */
  rebalance: Map<string, (reply: JoinReply) => void> | undefined;
  private rebalanceTimer: NodeJS.Timeout | undefined;
  assignments: Map<string, Buffer> | undefined;
  /** Members waiting for the leader's assignment: their SyncGroup answer (an error code, or 0 and it). */
  syncWaiters = new Map<string, (answer: { errorCode: number; assignment: Buffer }) => void>();
  offsets = new Map<string, bigint>();
  private nextMember = 1;

  constructor(readonly id: string) {}

  join(memberId: string, sessionTimeoutMs: number, protocols: Member['protocols']): Promise<JoinReply> {
    const id = memberId === '' ? `${this.id}-member-${this.nextMember++}` : memberId;
    this.members.set(id, { id, sessionTimeoutMs, protocols, lastSeen: Date.now() });
    this.startRebalance(sessionTimeoutMs);
    const reply = new Promise<JoinReply>((resolve) => this.rebalance!.set(id, resolve));
    this.completeIfAllJoined();
    return reply;
  }

  /** A rebalance: members learn of it from their heartbeats; it completes once they all joined again, or
   * when `timeoutMs` passed (those that did not are removed). */
  startRebalance(timeoutMs = 10_000): void {
    if (this.rebalance !== undefined) return;
    this.rebalance = new Map();
    this.assignments = undefined;
    // A SyncGroup waiting for a leader that will not send it (it left or died) is told to join again.
    for (const answer of this.syncWaiters.values())
      answer({ errorCode: ERROR.rebalanceInProgress, assignment: Buffer.alloc(0) });
    this.syncWaiters.clear();
    this.rebalanceTimer = setTimeout(() => {
      for (const id of this.members.keys()) if (!this.rebalance?.has(id)) this.members.delete(id);
      this.completeIfAllJoined();
    }, timeoutMs);
  }

  private completeIfAllJoined(): void {
    const joined = this.rebalance;
    if (joined === undefined || joined.size === 0 || [...this.members.keys()].some((id) => !joined.has(id))) return;
    clearTimeout(this.rebalanceTimer);
    this.rebalance = undefined;
    this.generation++;
    const ids = [...joined.keys()];
    this.leader = ids[0]!;
    this.protocol = this.members.get(this.leader)!.protocols[0]?.name ?? '';
    for (const [id, resolve] of joined) {
      const members =
        id === this.leader
          ? ids.map((member) => ({
              id: member,
              metadata:
                this.members.get(member)!.protocols.find((p) => p.name === this.protocol)?.metadata ?? Buffer.alloc(0),
            }))
          : [];
      resolve({
        errorCode: ERROR.none,
        generationId: this.generation,
        protocol: this.protocol,
        leaderId: this.leader,
        memberId: id,
        members,
      });
    }
  }

  leave(memberId: string): void {
    if (!this.members.delete(memberId)) return;
    if (this.members.size > 0) this.startRebalance();
    else this.rebalance = undefined;
  }

  /** Removes the members silent for longer than their session timeout; one waiting on its JoinGroup or
   * SyncGroup answer is not silent (the rebalance timeout bounds that wait), as in Kafka. */
  expire(now: number): void {
    for (const member of [...this.members.values()]) {
      if (this.rebalance?.has(member.id) || this.syncWaiters.has(member.id)) member.lastSeen = now;
      if (now - member.lastSeen > member.sessionTimeoutMs) {
        this.members.delete(member.id);
        this.rebalance?.delete(member.id);
        if (this.members.size > 0) {
          this.startRebalance();
          this.completeIfAllJoined();
        } else this.rebalance = undefined;
      }
    }
  }

  close(): void {
    clearTimeout(this.rebalanceTimer);
  }
}

export interface KafkaBroker {
  /** `127.0.0.1:<port>`, for `bootstrap_servers`. */
  address: string;
  /** The record batches of a topic as stored, every partition, in offset order per partition. */
  batches(topic: string): StoredBatch[];
  /** Committed offsets of a group, `<topic>/<partition>` → next offset. */
  committed(group: string): Map<string, bigint>;
  stop(): Promise<void>;
}

export async function startKafkaBroker(partitions = 2): Promise<KafkaBroker> {
  const topics = new Map<string, StoredBatch[][]>();
  const groups = new Map<string, Group>();
  const fetchWaiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let port = 0;

  const topic = (name: string) => {
    let stored = topics.get(name);
    if (stored === undefined) topics.set(name, (stored = Array.from({ length: partitions }, () => [])));
    return stored;
  };
  const group = (id: string) => {
    let found = groups.get(id);
    if (found === undefined) groups.set(id, (found = new Group(id)));
    return found;
  };
  const highWatermark = (log: StoredBatch[]) => (log.length === 0 ? 0n : log.at(-1)!.lastOffset + 1n);

  const expiry = setInterval(() => {
    for (const found of groups.values()) found.expire(Date.now());
  }, 100);

  /** Stores a produced record set (one or more record batches); the error code and base offset. */
  const append = (log: StoredBatch[], records: Buffer): { errorCode: number; baseOffset: bigint } => {
    const base = highWatermark(log);
    let next = base;
    const stored: StoredBatch[] = [];
    for (let at = 0; at < records.length; ) {
      if (records.length - at < 61) return { errorCode: ERROR.corruptMessage, baseOffset: -1n };
      const size = 12 + records.readInt32BE(at + 8);
      const batch = Buffer.from(records.subarray(at, at + size));
      if (batch.length !== size || batch.readInt8(16) !== 2 || batch.readUInt32BE(17) !== crc32c(batch.subarray(21)))
        return { errorCode: ERROR.corruptMessage, baseOffset: -1n };
      const lastOffsetDelta = BigInt(batch.readInt32BE(23));
      batch.writeBigInt64BE(next, 0);
      stored.push({ baseOffset: next, lastOffset: next + lastOffsetDelta, bytes: batch });
      next += lastOffsetDelta + 1n;
      at += size;
    }
    log.push(...stored);
    for (const wake of fetchWaiters) wake();
    return { errorCode: ERROR.none, baseOffset: base };
  };

  const handlers: Record<number, (r: Reader, version: number) => Promise<Writer> | Writer> = {
    [API.ApiVersions]: (_r, version) => {
      const w = new Writer().int16(ERROR.none);
      w.array(Object.entries(VERSIONS), (w, [key, [min, max]]) => w.int16(Number(key)).int16(min).int16(max));
      return version >= 1 ? w.int32(0) : w;
    },
    [API.Metadata]: (r) => {
      const requested = r.array(() => r.string()!);
      const names = requested.length > 0 ? requested : [...topics.keys()];
      return new Writer()
        .array([0], (w) => w.int32(0).string('127.0.0.1').int32(port))
        .array(names, (w, name) =>
          w
            .int16(ERROR.none)
            .string(name)
            .array(
              topic(name).map((_, id) => id),
              (w, id) =>
                w
                  .int16(ERROR.none)
                  .int32(id)
                  .int32(0)
                  .array([0], (w) => w.int32(0))
                  .array([0], (w) => w.int32(0)),
            ),
        );
    },
    [API.Produce]: (r) => {
      r.string();
      r.int16();
      r.int32();
      const results = r.array(() => {
        const name = r.string()!;
        const partitionResults = r.array(() => {
          const partition = r.int32();
          const records = r.bytesField() ?? Buffer.alloc(0);
          const log = topic(name)[partition];
          if (log === undefined) return { partition, errorCode: ERROR.unknownTopicOrPartition, baseOffset: -1n };
          return { partition, ...append(log, records) };
        });
        return { name, partitionResults };
      });
      return new Writer()
        .array(results, (w, { name, partitionResults }) =>
          w
            .string(name)
            .array(partitionResults, (w, result) =>
              w.int32(result.partition).int16(result.errorCode).int64(result.baseOffset).int64(-1n),
            ),
        )
        .int32(0);
    },
    [API.Fetch]: async (r) => {
      r.int32();
      const maxWait = r.int32();
      r.int32();
      r.int32();
      r.int8();
      const requests = r.array(() => ({
        name: r.string()!,
        partitions: r.array(() => ({ partition: r.int32(), offset: r.int64(), maxBytes: r.int32() })),
      }));
      const available = () =>
        requests.some(({ name, partitions }) =>
          partitions.some(({ partition, offset }) => highWatermark(topic(name)[partition] ?? []) > offset),
        );
      if (!available()) {
        let wake: () => void = () => {};
        const waited = new Promise<void>((resolve) => (wake = resolve));
        fetchWaiters.add(wake);
        const timer = setTimeout(wake, maxWait);
        await waited;
        clearTimeout(timer);
        fetchWaiters.delete(wake);
      }
      return new Writer().int32(0).array(requests, (w, { name, partitions }) =>
        w.string(name).array(partitions, (w, { partition, offset, maxBytes }) => {
          const log = topic(name)[partition];
          if (log === undefined) {
            w.int32(partition).int16(ERROR.unknownTopicOrPartition).int64(-1n).int64(-1n).int32(-1).bytes(null);
            return;
          }
          const chosen: Buffer[] = [];
          let size = 0;
          for (const batch of log) {
            if (batch.lastOffset < offset) continue;
            if (chosen.length > 0 && size + batch.bytes.length > maxBytes) break;
            chosen.push(batch.bytes);
            size += batch.bytes.length;
          }
          const end = highWatermark(log);
          w.int32(partition).int16(ERROR.none).int64(end).int64(end).int32(-1).bytes(Buffer.concat(chosen));
        }),
      );
    },
    [API.ListOffsets]: (r) => {
      r.int32();
      const requests = r.array(() => ({
        name: r.string()!,
        partitions: r.array(() => ({ partition: r.int32(), timestamp: r.int64() })),
      }));
      return new Writer().array(requests, (w, { name, partitions }) =>
        w.string(name).array(partitions, (w, { partition, timestamp }) => {
          const log = topic(name)[partition] ?? [];
          // -2: the earliest offset; -1 (or any time): the latest.
          w.int32(partition)
            .int16(ERROR.none)
            .int64(-1n)
            .int64(timestamp === -2n ? 0n : highWatermark(log));
        }),
      );
    },
    [API.FindCoordinator]: (r) => {
      r.string();
      return new Writer().int16(ERROR.none).int32(0).string('127.0.0.1').int32(port);
    },
    [API.JoinGroup]: async (r) => {
      const id = r.string()!;
      const sessionTimeoutMs = r.int32();
      const memberId = r.string()!;
      r.string();
      const protocols = r.array(() => ({ name: r.string()!, metadata: r.bytesField() ?? Buffer.alloc(0) }));
      const reply = await group(id).join(memberId, sessionTimeoutMs, protocols);
      return new Writer()
        .int16(reply.errorCode)
        .int32(reply.generationId)
        .string(reply.protocol)
        .string(reply.leaderId)
        .string(reply.memberId)
        .array(reply.members, (w, member) => w.string(member.id).bytes(member.metadata));
    },
    [API.SyncGroup]: async (r) => {
      const found = group(r.string()!);
      const generation = r.int32();
      const memberId = r.string()!;
      const assignments = r.array(() => ({ id: r.string()!, assignment: r.bytesField() ?? Buffer.alloc(0) }));
      if (!found.members.has(memberId)) return new Writer().int16(ERROR.unknownMemberId).bytes(Buffer.alloc(0));
      if (generation !== found.generation || found.rebalance !== undefined)
        return new Writer().int16(ERROR.rebalanceInProgress).bytes(Buffer.alloc(0));
      if (memberId === found.leader) {
        found.assignments = new Map(assignments.map(({ id, assignment }) => [id, assignment]));
        for (const [id, answer] of found.syncWaiters)
          answer({ errorCode: ERROR.none, assignment: found.assignments.get(id) ?? Buffer.alloc(0) });
        found.syncWaiters.clear();
      }
      const stored = found.assignments?.get(memberId);
      const { errorCode, assignment } =
        stored !== undefined
          ? { errorCode: ERROR.none, assignment: stored }
          : await new Promise<{ errorCode: number; assignment: Buffer }>((resolve) =>
              found.syncWaiters.set(memberId, resolve),
            );
      return new Writer().int16(errorCode).bytes(assignment);
    },
    [API.Heartbeat]: (r) => {
      const found = group(r.string()!);
      const generation = r.int32();
      const member = found.members.get(r.string()!);
      if (member === undefined) return new Writer().int16(ERROR.unknownMemberId);
      member.lastSeen = Date.now();
      if (found.rebalance !== undefined) return new Writer().int16(ERROR.rebalanceInProgress);
      return new Writer().int16(generation === found.generation ? ERROR.none : ERROR.illegalGeneration);
    },
    [API.LeaveGroup]: (r) => {
      const found = group(r.string()!);
      found.leave(r.string()!);
      return new Writer().int16(ERROR.none);
    },
    [API.OffsetCommit]: (r) => {
      const found = group(r.string()!);
      const generation = r.int32();
      const memberId = r.string()!;
      r.int64();
      const requests = r.array(() => ({
        name: r.string()!,
        partitions: r.array(() => {
          const partition = { partition: r.int32(), offset: r.int64() };
          r.string();
          return partition;
        }),
      }));
      const errorCode = !found.members.has(memberId)
        ? ERROR.unknownMemberId
        : found.rebalance !== undefined
          ? ERROR.rebalanceInProgress
          : generation !== found.generation
            ? ERROR.illegalGeneration
            : ERROR.none;
      if (errorCode === ERROR.none)
        for (const { name, partitions } of requests)
          for (const { partition, offset } of partitions) found.offsets.set(`${name}/${partition}`, offset);
      if (found.members.has(memberId)) found.members.get(memberId)!.lastSeen = Date.now();
      return new Writer().array(requests, (w, { name, partitions }) =>
        w.string(name).array(partitions, (w, { partition }) => w.int32(partition).int16(errorCode)),
      );
    },
    [API.OffsetFetch]: (r) => {
      const found = group(r.string()!);
      const requests = r.array(() => ({ name: r.string()!, partitions: r.array(() => r.int32()) }));
      return new Writer().array(requests, (w, { name, partitions }) =>
        w.string(name).array(partitions, (w, partition) =>
          w
            .int32(partition)
            .int64(found.offsets.get(`${name}/${partition}`) ?? -1n)
            .string('')
            .int16(ERROR.none),
        ),
      );
    },
  };

  /** Answers the requests of one connection in order (Kafka answers a connection's requests in order). */
  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let answering = Promise.resolve();
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const request = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + request.length);
        const r = new Reader(Buffer.from(request));
        const apiKey = r.int16();
        const version = r.int16();
        const correlationId = r.int32();
        r.string();
        answering = answering.then(async () => {
          const range = VERSIONS[apiKey];
          let body: Buffer;
          if (range === undefined || version < range[0] || version > range[1]) {
            if (apiKey !== API.ApiVersions) {
              socket.destroy();
              return;
            }
            body = new Writer()
              .int16(ERROR.unsupportedVersion)
              .array([], () => {})
              .finish();
          } else body = (await handlers[apiKey]!(r, version)).finish();
          const header = Buffer.alloc(8);
          header.writeInt32BE(body.length + 4, 0);
          header.writeInt32BE(correlationId, 4);
          if (!socket.destroyed) socket.write(Buffer.concat([header, body]));
        });
      }
    });
  };

  const server: Server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  return {
    address: `127.0.0.1:${port}`,
    batches: (name) => (topics.get(name) ?? []).flat(),
    committed: (id) => new Map(groups.get(id)?.offsets ?? []),
    async stop() {
      clearInterval(expiry);
      for (const found of groups.values()) found.close();
      for (const wake of fetchWaiters) wake();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Splunk's indexer acknowledgements as the splunk_hec source answers them (Vector's `IndexerAcknowledgement`):
// each request with a channel gets the channel's next ack id (from 0), the id becomes "indexed" once the sinks
// delivered its events, and `/services/collector/ack` reports (and forgets) the indexed ones. Limits:
// `max_number_of_ack_channels` channels, `max_pending_acks` ids in all (past it the oldest indexed id of the
// least recently used channel is dropped, else the request is refused), `max_pending_acks_per_channel` indexed
// ids per channel (past it the oldest goes); with `ack_idle_cleanup`, a channel unused for `max_idle_time`
// seconds is removed.

import { z } from 'zod';
import type { BatchStatus } from '../../../topology/batch.js';

const fields = {
  enabled: z.boolean().optional(),
  max_pending_acks: z.number().int().positive().default(10_000_000),
  max_number_of_ack_channels: z.number().int().positive().default(1_000_000),
  max_pending_acks_per_channel: z.number().int().positive().default(1_000_000),
  ack_idle_cleanup: z.boolean().default(false),
  max_idle_time: z.number().int().positive().default(300),
};

/** `acknowledgements`: the table, or a bare boolean for `enabled`. */
export const hecAcknowledgementsSchema = z
  .union([z.boolean().transform((enabled) => z.strictObject(fields).parse({ enabled })), z.strictObject(fields)])
  .prefault({});

type HecAcknowledgementsOptions = z.infer<typeof hecAcknowledgementsSchema>;

/** Thrown when a limit refuses a channel or an ack id: answered 503 "Server is busy". */
export class ServerBusy extends Error {}

class Channel {
  lastUsed = Date.now();
  private nextAckId = 0;
  /** Ids whose events were delivered and not yet reported, oldest first (ids grow). */
  private readonly indexed = new Set<number>();

  constructor(private readonly maxIndexed: number) {}

  ackId(status: Promise<BatchStatus>): number {
    this.lastUsed = Date.now();
    const id = this.nextAckId++;
    void status.then((outcome) => {
      if (outcome !== 'delivered') return;
      this.indexed.add(id);
      if (this.indexed.size > this.maxIndexed) this.dropOldest();
    });
    return id;
  }

  /** Each asked id: indexed or not; the indexed ones are forgotten. */
  statuses(ids: readonly number[]): Record<string, boolean> {
    this.lastUsed = Date.now();
    return Object.fromEntries(ids.map((id) => [String(id), this.indexed.delete(id)]));
  }

  dropOldest(): boolean {
    const [oldest] = [...this.indexed].sort((a, b) => a - b);
    return oldest !== undefined && this.indexed.delete(oldest);
  }
}

export class IndexerAcknowledgements {
  private readonly channels = new Map<string, Channel>();
  private pending = 0;
  private readonly cleanup: NodeJS.Timeout | undefined;

  constructor(private readonly options: HecAcknowledgementsOptions) {
    if (options.ack_idle_cleanup) {
      const idleMs = options.max_idle_time * 1000;
      this.cleanup = setInterval(() => {
        const now = Date.now();
        for (const [id, channel] of this.channels) if (now - channel.lastUsed > idleMs) this.channels.delete(id);
      }, idleMs);
      this.cleanup.unref();
    }
  }

  /** The ack id of a request on `channel` whose events settle with `status`. */
  ackId(channelId: string, status: Promise<BatchStatus>): number {
    const channel = this.channel(channelId);
    if (++this.pending > this.options.max_pending_acks && !this.dropOldest()) {
      this.pending--;
      throw new ServerBusy();
    }
    return channel.ackId(status);
  }

  statuses(channelId: string, ids: readonly number[]): Record<string, boolean> {
    const statuses = this.channel(channelId).statuses(ids);
    this.pending -= Object.values(statuses).filter(Boolean).length;
    return statuses;
  }

  stop(): void {
    clearInterval(this.cleanup);
  }

  private channel(id: string): Channel {
    let channel = this.channels.get(id);
    if (channel === undefined) {
      if (this.channels.size >= this.options.max_number_of_ack_channels) throw new ServerBusy();
      this.channels.set(id, (channel = new Channel(this.options.max_pending_acks_per_channel)));
    }
    return channel;
  }

  /** Drops the oldest indexed id of the least recently used channel that has one. */
  private dropOldest(): boolean {
    const channels = [...this.channels.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    if (!channels.some((channel) => channel.dropOldest())) return false;
    this.pending--;
    return true;
  }
}

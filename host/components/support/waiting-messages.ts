// Messages a broker's client delivered (nats, amqp), waiting for a source's pipeline: the source takes all
// those waiting at once, decodes them together as one batch and awaits the pipeline before taking more (the
// back-pressure).

/** Messages a broker source decodes and sends on together at most (those already waiting in the client). */
export const MAX_GATHERED = 1000;

/** Takes the messages of `messages` as they come, all those waiting at once, and hands each group to
 * `handle` (awaited: the back-pressure). Ends when `messages` does. */
export async function gather<M>(messages: WaitingMessages<M>, handle: (group: M[]) => Promise<void>): Promise<void> {
  for (;;) {
    const group = await messages.take(MAX_GATHERED);
    if (group === undefined) return;
    await handle(group);
  }
}

/** Messages a client delivered, waiting for the pipeline: at most `capacity` of them, beyond which a message
 * is dropped (core NATS' `subscriber_capacity`); unbounded where the broker bounds what it hands out
 * unacknowledged (JetStream's `max_ack_pending`, AMQP's prefetch). */
export class WaitingMessages<M> {
  private messages: M[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  /** False when the message was dropped. */
  push(message: M): boolean {
    if (this.messages.length >= this.capacity) return false;
    this.messages.push(message);
    this.wake?.();
    return true;
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** Up to `max` waiting messages, once there is one; undefined once ended and empty. */
  async take(max: number): Promise<M[] | undefined> {
    while (this.messages.length === 0) {
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    if (this.messages.length <= max) {
      const all = this.messages;
      this.messages = [];
      return all;
    }
    return this.messages.splice(0, max);
  }
}

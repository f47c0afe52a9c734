// How a source that acknowledges what it received to a broker (nats, redis, mqtt) sends batches on: with
// end-to-end acknowledgements the batches carry one finalizer, and the broker is answered with their worst
// status once the sinks are done with them; without, once downstream took them, as Vector's sources do. The
// source is done (`settled`) once every answer has been given.

import { BatchNotifier, type BatchStatus, type EventBatch } from '../../topology/batch.js';
import type { SourceContext } from '../component.js';

export class SourceAcknowledgements {
  private readonly answering = new Set<Promise<void>>();

  /** `acknowledgements`: the source's sinks acknowledge (`ComponentEnv.acknowledgements`). */
  constructor(private readonly acknowledgements = false) {}

  /** Sends `batches` on; `answer` (none: nothing to acknowledge) gets their status as said above. */
  async send(
    context: SourceContext,
    batches: readonly EventBatch[],
    answer?: (status: BatchStatus) => unknown,
  ): Promise<void> {
    if (answer === undefined || !this.acknowledgements) {
      for (const batch of batches) await context.send(batch);
      await answer?.('delivered');
      return;
    }
    let answered: () => void = () => {};
    const done = new Promise<void>((resolve) => (answered = resolve));
    this.answering.add(done);
    void done.then(() => this.answering.delete(done));
    const finalizer = new BatchNotifier((status) => void Promise.resolve(answer(status)).finally(answered));
    for (const batch of batches) {
      finalizer.hold();
      await context.send({ ...batch, finalizer });
    }
    finalizer.release();
  }

  /** Resolves once every batch sent has been answered to the broker. */
  async settled(): Promise<void> {
    while (this.answering.size > 0) await Promise.all([...this.answering]);
  }
}

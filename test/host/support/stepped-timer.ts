// Retry timers for sink tests: waits are recorded and end only when the test says, so no test sleeps
// through a backoff.
import type { RetryTimer } from '../../../host/components/support/retry.js';

/** A timer that records each wait and lets the test end it (`release`); an abort rejects it. */
export function steppedTimer() {
  const waits: Array<{ ms: number; release: () => void }> = [];
  const timer: RetryTimer = {
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        waits.push({ ms, release: resolve });
        signal.addEventListener('abort', () => reject(signal.reason));
      }),
    random: () => 0.5,
  };
  return { timer, waits };
}

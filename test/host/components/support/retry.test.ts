// Vector's retry policy: the Fibonacci backoff sequence, its cap, full jitter drawn from an injected random
// source, and the retry_attempts limit.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FibonacciBackoff, RetryPolicy } from '../../../../host/components/support/retry.js';

const never = () => {
  throw new Error('no jitter: random is not drawn');
};

const take = (backoff: { next(): number }, n: number) => Array.from({ length: n }, () => backoff.next());

test('no jitter: initial × 1, 2, 3, 5, 8, 13 …, capped at the maximum', () => {
  assert.equal(
    take(new FibonacciBackoff(1000, 30_000, 'None', never), 9),
    [1000, 2000, 3000, 5000, 8000, 13_000, 21_000, 30_000, 30_000],
  );
  assert.equal(take(new FibonacciBackoff(2000, 10_000, 'None', never), 5), [2000, 4000, 6000, 10_000, 10_000]);
  // An initial backoff above the cap is capped from the first retry.
  assert.equal(take(new FibonacciBackoff(5000, 3000, 'None', never), 2), [3000, 3000]);
});

test('full jitter: a whole number of ms in [1, backoff], drawn from the random source', () => {
  const draws = [0, 0.5, 0.9999, 0.25];
  const backoff = new FibonacciBackoff(1000, 30_000, 'Full', () => draws.shift()!);
  // Backoffs 1000, 2000, 3000, 5000.
  assert.equal(take(backoff, 4), [1, 1001, 3000, 1251]);
});

test('retry_attempts bounds the retries; the delays follow the backoff', () => {
  const policy = new RetryPolicy(
    { retry_attempts: 3, retry_initial_backoff_secs: 1, retry_max_duration_secs: 30, retry_jitter_mode: 'None' },
    never,
  );
  assert.equal(take({ next: () => policy.nextDelay()! }, 3), [1000, 2000, 3000]);
  assert.is(policy.nextDelay(), undefined);
  const none = new RetryPolicy(
    { retry_attempts: 0, retry_initial_backoff_secs: 1, retry_max_duration_secs: 30, retry_jitter_mode: 'None' },
    never,
  );
  assert.is(none.nextDelay(), undefined);
});

test.run();

// Waiting for something that has no event to wait on: poll a condition. The deadline only bounds a
// failure, so it is generous: a loaded machine must not fail a test that would pass.

/** Polls `condition` until it holds; rejects with `describe()` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, describe: () => string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

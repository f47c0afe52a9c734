// The clock of stateful transforms (throttle, dedupe): monotonic milliseconds; tests drive a fake one.

export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();

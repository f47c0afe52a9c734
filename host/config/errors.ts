// Configuration errors: every problem found is collected, so one run reports all of them.

import { redactSecrets } from './redaction.js';

/** A configuration that cannot be used; `errors` lists every problem, each naming its file and option. A
 * problem quoting a value that came from a secret shows its `SECRET[...]` reference instead. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly errors: string[];

  constructor(errors: string[]) {
    const redacted = errors.map(redactSecrets);
    super(redacted.join('\n'));
    this.errors = redacted;
  }
}

/** Levenshtein distance between two strings, counted in UTF-16 units (config keys are ASCII). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to a misspelled `name`, if close enough to be what was meant: with the same first
 * letter (typos rarely hit it) and at most a third of the name's length in edits (at least one), so "encodng"
 * finds "encoding", while "zzz" finds nothing and Vector's `reduce` is not taken for `dedupe`.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate[0]?.toLowerCase() !== name[0]?.toLowerCase()) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` when a close candidate exists, else nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const guess = closestName(name, candidates);
  return guess === undefined ? '' : `; did you mean "${guess}"?`;
}

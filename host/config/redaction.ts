// The secret values this process resolved, and their removal from what it prints: logs, configuration
// errors, `svc validate`'s report, `svc graph`. Kept per process (not per configuration) because a value
// may still be quoted after a reload replaced it, by a log of the old pipeline or an error about it.

/** Shorter values are not redacted: replacing every "ab" or "1" of every log line would garble the logs,
 * and a value that short is no secret worth the name. */
const MIN_REDACTED_LENGTH = 4;

/** Each value (and its JSON-escaped spelling, as an error may quote it) → the `SECRET[backend.key]` shown instead. */
const references = new Map<string, string>();
let pattern: RegExp | undefined;

/** Remembers resolved secrets (`backend.key` → value) so that redactSecrets hides their values. */
export function rememberSecrets(values: ReadonlyMap<string, string>): void {
  for (const [name, value] of values) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const spelling of new Set([value, JSON.stringify(value).slice(1, -1)]))
      if (!references.has(spelling)) references.set(spelling, `SECRET[${name}]`);
  }
  // Longest first, so that a secret holding another is replaced whole.
  const alternatives = [...references.keys()]
    .sort((a, b) => b.length - a.length)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'g');
}

/** `text` with every remembered secret value replaced by its `SECRET[backend.key]` reference. */
export function redactSecrets(text: string): string {
  return pattern === undefined ? text : text.replace(pattern, (value) => references.get(value)!);
}

// Computed values by key, forgotten all at once when the cache is full: a program uses a few keys (formats,
// patterns, a zone's hours), each on many events, while a stream of distinct keys must not grow memory
// without bound.

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /**
   * The value of `key`, `compute(key)` unless known (a throw caches nothing). Hot callers pass a function
   * made once, not a closure per call.
   */
  get(key: K, compute: (key: K) => V): V {
    const known = this.entries.get(key);
    // One lookup on a hit; `has` only tells a cached undefined from a miss.
    if (known !== undefined || this.entries.has(key)) return known as V;
    if (this.entries.size >= this.limit) this.entries.clear();
    const value = compute(key);
    this.entries.set(key, value);
    return value;
  }
}

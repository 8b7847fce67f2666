/**
 * A map of at most `limit` entries: reading or writing a key makes it the most recent, and a
 * write past the limit forgets the least recently used. For the per-document caches of the
 * request path (costs, compiled documents), which hostile clients must not grow without end.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-inserted last: a Map iterates in insertion order, so the first key is the oldest.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      this.entries.delete(this.entries.keys().next().value as K);
    }
  }
}

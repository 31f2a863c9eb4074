/**
 * A cache of read results (serialized response bodies, resolved credentials), valid for exactly as
 * long as the tables they were read from are unchanged (changes.ts). There is no time-to-live: an entry
 * is either provably current or dropped. Bounded by an estimate of its memory, least recently used
 * first out. `maxBytes` 0 turns it off.
 */
import type { ChangeTracker } from './changes.js';

interface Entry {
  stamp: number;
  tables: string[];
  value: unknown;
  bytes: number;
}

/** Rough heap cost of a value: strings by length, anything else a flat amount. */
const sizeOf = (v: unknown) => (typeof v === 'string' ? 2 * v.length : 512) + 256;

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  readonly stats = { hits: 0, misses: 0, stored: 0, uncacheable: 0 };

  constructor(
    private readonly tracker: ChangeTracker,
    public maxBytes: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** The cached value of `key`, or `compute()`'s (cached when every table it read is watched). */
  remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.lookup(key, compute, true);
  }

  /**
   * remember() for credential lookups: a null answer (nothing found) is returned but never kept, so
   * guessed or random credentials cannot fill the cache.
   */
  rememberFound<T>(key: string, compute: () => Promise<T | null>): Promise<T | null> {
    return this.lookup(key, compute, false);
  }

  private async lookup<T>(key: string, compute: () => Promise<T>, keepNull: boolean): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      if (this.tracker.unchangedSince(hit.stamp, hit.tables)) {
        this.entries.set(key, hit);
        this.stats.hits++;
        return hit.value as T;
      }
      this.bytes -= hit.bytes;
    }
    this.stats.misses++;
    const stamp = this.maxBytes > 0 ? this.tracker.stamp() : null;
    if (stamp === null) return compute();
    const { value, tables } = await this.tracker.recordReads(compute);
    if (value === null && !keepNull) return value;
    if (tables.size > 0 && this.tracker.covered(tables) && this.tracker.unchangedSince(stamp, tables)) {
      this.put(key, { stamp, tables: [...tables], value, bytes: sizeOf(value) });
    } else {
      this.stats.uncacheable++;
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private put(key: string, e: Entry): void {
    if (e.bytes > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    while (this.bytes + e.bytes > this.maxBytes && this.entries.size > 0) {
      const [k, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(k);
      this.bytes -= oldest.bytes;
    }
    this.entries.set(key, e);
    this.bytes += e.bytes;
    this.stats.stored++;
  }
}

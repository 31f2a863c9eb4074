/**
 * A cache of read results (serialized response bodies, resolved credentials), valid for exactly as
 * long as the tables they were read from are unchanged (changes.ts). There is no time-to-live: an entry
 * is either provably current or dropped. Bounded by an estimate of its memory; what goes first is the
 * oldest entry not used since it was last passed over (second chance, an approximation of least recently
 * used that costs a hit no change to the map: a hit only marks its entry, and a full cache moves a marked
 * entry to the young end instead of dropping it). `maxBytes` 0 turns it off.
 */
import type { ChangeTracker } from './changes.js';

interface Entry {
  stamp: number;
  tables: string[];
  value: unknown;
  bytes: number;
  /** Hit since the eviction last passed it over. */
  used: boolean;
}

/** Marked entries a put moves aside before it drops one anyway: a put's work stays bounded. */
const SECOND_CHANCES_PER_PUT = 64;

/** Rough memory cost of a value: strings and bytes by length, anything else a flat amount. */
const sizeOf = (v: unknown) => (typeof v === 'string' ? 2 * v.length : Buffer.isBuffer(v) ? v.byteLength : 512) + 256;

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

  /** Whether `key` has an entry (current or stale), without counting it as used. */
  holds(key: string): boolean {
    return this.entries.has(key);
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

  /**
   * The current value of `key`, or undefined when there is none: the synchronous half of remember(), for
   * callers that answer at once on a hit (no promise, no turn of the microtask queue).
   */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (this.tracker.unchangedSince(hit.stamp, hit.tables)) {
      hit.used = true;
      this.stats.hits++;
      return hit.value as T;
    }
    this.entries.delete(key);
    this.bytes -= hit.bytes;
    return undefined;
  }

  private async lookup<T>(key: string, compute: () => Promise<T>, keepNull: boolean): Promise<T> {
    const hit = this.peek<T>(key);
    if (hit !== undefined) return hit;
    this.stats.misses++;
    const stamp = this.maxBytes > 0 ? this.tracker.stamp() : null;
    if (stamp === null) return compute();
    const { value, tables } = await this.tracker.recordReads(compute);
    if (value === null && !keepNull) return value;
    if (tables.size > 0 && this.tracker.covered(tables) && this.tracker.unchangedSince(stamp, tables)) {
      this.put(key, { stamp, tables: [...tables], value, bytes: sizeOf(value), used: false });
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
    let chances = SECOND_CHANCES_PER_PUT;
    while (this.bytes + e.bytes > this.maxBytes && this.entries.size > 0) {
      const [k, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(k);
      if (oldest.used && chances-- > 0) {
        oldest.used = false;
        this.entries.set(k, oldest);
        continue;
      }
      this.bytes -= oldest.bytes;
    }
    this.entries.set(key, e);
    this.bytes += e.bytes;
    this.stats.stored++;
  }
}

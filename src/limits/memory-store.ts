/**
 * The store in this process's memory: the default without REDIS_URL, and the fallback while Redis is
 * away. Counters are bounded: past `maxKeys` windows the oldest are dropped first.
 */
import { randomBytes } from 'node:crypto';
import type { LimitStore, Slot, WindowCount } from './store.js';

type Clock = () => number;

interface Window {
  endMs: number;
  count: number;
}

export class MemoryStore implements LimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly slots = new Map<string, Map<string, number>>();

  constructor(
    private readonly clock: Clock = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  private current(key: string, now: number): Window | null {
    const w = this.windows.get(key);
    if (!w) return null;
    if (w.endMs <= now) {
      this.windows.delete(key);
      return null;
    }
    return w;
  }

  /** Drops ended windows from the oldest end, then the oldest windows while over the bound. */
  private makeRoom(now: number): void {
    for (const [key, w] of this.windows) {
      if (w.endMs > now && this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }

  hit(key: string, windowMs: number): WindowCount {
    const now = this.clock();
    let w = this.current(key, now);
    if (w) {
      w.count++;
    } else {
      this.makeRoom(now);
      w = { endMs: now + windowMs, count: 1 };
      this.windows.set(key, w);
    }
    return { count: w.count, resetInMs: w.endMs - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = this.clock();
    const w = this.current(key, now);
    return w ? { count: w.count, resetInMs: w.endMs - now } : { count: 0, resetInMs: 0 };
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async acquire(key: string, max: number, leaseMs: number): Promise<Slot | null> {
    const now = this.clock();
    let held = this.slots.get(key);
    if (held) for (const [id, until] of held) if (until <= now) held.delete(id);
    if (held && held.size >= max) return null;
    if (!held) this.slots.set(key, (held = new Map()));
    const id = randomBytes(9).toString('base64url');
    held.set(id, now + leaseMs);
    return {
      release: async () => {
        const h = this.slots.get(key);
        if (!h) return;
        h.delete(id);
        if (h.size === 0) this.slots.delete(key);
      },
    };
  }

  async taken(key: string): Promise<number> {
    const now = this.clock();
    let n = 0;
    for (const until of this.slots.get(key)?.values() ?? []) if (until > now) n++;
    return n;
  }
}

/**
 * The one store behind every limit: fixed-window counters (request rates, failed attempts) and
 * concurrency slots. MemoryStore keeps them in this process; RedisStore shares them between nodes;
 * FailoverStore uses Redis while it answers and this process's memory while it does not.
 */

/** A key's current fixed window. */
export interface WindowCount {
  /** Events counted in the window (including the one just counted, for `hit`). */
  count: number;
  /** Milliseconds until the window ends; 0 when the key has no window. */
  resetInMs: number;
}

/** One taken concurrency slot. Releasing twice is harmless. */
export interface Slot {
  release(): Promise<void>;
}

export interface LimitStore {
  /**
   * Counts one event against `key`. A window starts at the first event and lasts `windowMs`. A store
   * that counts in this process answers synchronously (the request hook then needs no promise).
   */
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /** The key's current window, without counting. */
  peek(key: string): Promise<WindowCount>;
  /** Forgets the key's window. */
  clear(key: string): Promise<void>;
  /**
   * Takes one of `max` slots of `key`, or null when all are taken. A slot that is not released within
   * `leaseMs` is freed anyway, so a crashed holder cannot keep it.
   */
  acquire(key: string, max: number, leaseMs: number): Promise<Slot | null>;
  /** How many slots of `key` are taken now. */
  taken(key: string): Promise<number>;
}

/** Whole seconds a client should wait for a window to end: at least 1. */
export function retryAfterS(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}

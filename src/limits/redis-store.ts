/**
 * The store in Redis, shared by every node. Each operation is one round trip (a Lua script or one
 * command), atomic on the server:
 * - a window is a counter (INCR) that expires `windowMs` after its first event (PEXPIRE);
 * - the slots of a key are a sorted set of slot ids scored by the time their lease ends (Redis's own
 *   clock, so the nodes' clocks do not matter); taking a slot first drops the ended leases, so a node
 *   that died holding slots frees them after the lease.
 * The client never queues commands while disconnected and gives up on a command after the timeout:
 * FailoverStore turns either into "use memory for now".
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LimitStore, Slot, WindowCount } from './store.js';

const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

const PEEK = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(n), ttl}`;

const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const ACQUIRE = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const TAKEN = `${NOW_MS}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

type Script = (key: string, ...args: Array<string | number>) => Promise<unknown>;
interface Scripts {
  limitHit: Script;
  limitPeek: Script;
  limitAcquire: Script;
  limitTaken: Script;
}

export interface RedisOptions {
  /** Give up on a command after this many milliseconds. */
  commandTimeoutMs: number;
}

/** A client for the limits: no offline queue, short timeouts, reconnecting in the background forever. */
export function limitsRedisClient(url: string, opts: RedisOptions): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: opts.commandTimeoutMs,
    connectTimeout: Math.max(1000, opts.commandTimeoutMs * 4),
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
  });
}

export class RedisStore implements LimitStore {
  private readonly scripts: Scripts;

  constructor(
    readonly client: Redis,
    private readonly prefix: string,
  ) {
    const define = (name: keyof Scripts, lua: string) => {
      if (!(name in client)) client.defineCommand(name, { numberOfKeys: 1, lua });
    };
    define('limitHit', HIT);
    define('limitPeek', PEEK);
    define('limitAcquire', ACQUIRE);
    define('limitTaken', TAKEN);
    this.scripts = client as unknown as Scripts;
  }

  private windowKey(key: string): string {
    return `${this.prefix}w:${key}`;
  }

  private slotsKey(key: string): string {
    return `${this.prefix}s:${key}`;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, resetInMs] = (await this.scripts.limitHit(this.windowKey(key), windowMs)) as [number, number];
    return { count, resetInMs };
  }

  async peek(key: string): Promise<WindowCount> {
    const [count, resetInMs] = (await this.scripts.limitPeek(this.windowKey(key))) as [number, number];
    return { count, resetInMs };
  }

  async clear(key: string): Promise<void> {
    await this.client.del(this.windowKey(key));
  }

  async acquire(key: string, max: number, leaseMs: number): Promise<Slot | null> {
    const id = randomBytes(9).toString('base64url');
    const zkey = this.slotsKey(key);
    const ok = await this.scripts.limitAcquire(zkey, max, leaseMs, id);
    if (ok !== 1) return null;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.client.zrem(zkey, id);
      },
    };
  }

  async taken(key: string): Promise<number> {
    return Number(await this.scripts.limitTaken(this.slotsKey(key)));
  }
}

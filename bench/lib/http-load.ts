/**
 * The lean HTTP/1.1 load loop that runs inside each client process (bench/client.ts): keep-alive
 * sockets from `node:net`, one request in flight per connection (no pipelining), requests written as
 * ready-made bytes and responses framed by Content-Length or chunked encoding without building any
 * object per response. Per request the client does a socket write, a scan of the response head and
 * one number stored; that keeps its CPU well under the server's, so the server, not the client, sets
 * the pace (the report flags a run where a client process still went over ~80 % of a core).
 */
import { connect, type Socket } from 'node:net';
import type { BenchRequest } from './scenario.js';

const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const TRAILER = 4;
const RECONNECT_DELAY_MS = 20;
const CACHE_MAX = 10_000;

export interface PhaseResult {
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Non-2xx answers by status. */
  statuses: Record<string, number>;
  /** Latency of each 2xx answer, ms, in arrival order (recorded phases only). */
  latencies: Float64Array;
  elapsedS: number;
}

/** Turns requests into the bytes sent; a bodiless GET without headers of its own is encoded once. */
function encoder(url: string, headers: Record<string, string>): (r: BenchRequest) => string | Buffer {
  const host = new URL(url).host;
  const cache = new Map<string, Buffer>();
  const lines = (h: Record<string, string>) =>
    Object.entries(h)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
  const fixed = lines(headers);
  const encode = (r: BenchRequest) => {
    const body = r.body ?? '';
    const extra = r.headers ? lines(r.headers) : '';
    const length = body || (r.method && r.method !== 'GET') ? `content-length: ${Buffer.byteLength(body)}\r\n` : '';
    return `${r.method ?? 'GET'} ${r.path} HTTP/1.1\r\nhost: ${host}\r\n${fixed}${extra}${length}\r\n${body}`;
  };
  return (r) => {
    if (r.body || r.headers || (r.method && r.method !== 'GET')) return encode(r);
    let b = cache.get(r.path);
    if (!b) {
      b = Buffer.from(encode(r), 'latin1');
      if (cache.size < CACHE_MAX) cache.set(r.path, b);
    }
    return b;
  };
}

class Connection {
  private socket: Socket | null = null;
  private rest: Buffer | null = null;
  private state = HEAD;
  private remaining = 0;
  private status = 0;
  sentAt = 0;
  busy = false;

  constructor(
    private readonly url: URL,
    readonly encode: (r: BenchRequest) => string | Buffer,
    private readonly load: Load,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve) => {
      const s = connect({ host: this.url.hostname, port: Number(this.url.port), noDelay: true });
      this.socket = s;
      this.rest = null;
      this.state = HEAD;
      s.once('connect', () => resolve());
      s.on('data', (chunk: Buffer) => this.data(chunk));
      s.on('error', () => {});
      s.once('close', () => {
        resolve();
        if (this.socket !== s) return;
        this.socket = null;
        if (this.busy) this.fail(false);
        if (!this.load.closed) setTimeout(() => void this.open().then(() => this.load.kick(this)), RECONNECT_DELAY_MS);
      });
    });
  }

  send(r: BenchRequest): void {
    if (!this.socket || this.socket.connecting) return;
    this.busy = true;
    this.sentAt = performance.now();
    this.socket.write(this.encode(r));
  }

  /** The request in flight failed: counted, and the socket is replaced. */
  fail(timedOut: boolean): void {
    this.busy = false;
    this.load.failed(timedOut);
    const s = this.socket;
    if (s) {
      this.socket = null;
      s.destroy();
      if (!this.load.closed) setTimeout(() => void this.open().then(() => this.load.kick(this)), RECONNECT_DELAY_MS);
    }
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private finish(): void {
    this.busy = false;
    this.state = HEAD;
    this.load.answered(this, this.status, performance.now() - this.sentAt);
  }

  private data(chunk: Buffer): void {
    const b = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let i = 0;
    while (i < b.length) {
      if (this.state === HEAD) {
        const end = b.indexOf('\r\n\r\n', i, 'latin1');
        if (end < 0) return void (this.rest = b.subarray(i));
        const head = b.toString('latin1', i, end);
        i = end + 4;
        this.status = Number(head.slice(9, 12));
        if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) this.state = CHUNK_SIZE;
        else {
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          this.remaining = m ? Number(m[1]) : 0;
          if (this.remaining === 0) this.finish();
          else this.state = BODY;
        }
      } else if (this.state === BODY || this.state === CHUNK_DATA) {
        const take = Math.min(this.remaining, b.length - i);
        this.remaining -= take;
        i += take;
        if (this.remaining > 0) continue;
        if (this.state === BODY) this.finish();
        else this.state = CHUNK_SIZE;
      } else {
        const eol = b.indexOf('\r\n', i, 'latin1');
        if (eol < 0) return void (this.rest = b.subarray(i));
        const line = eol - i;
        const size = this.state === CHUNK_SIZE ? parseInt(b.toString('latin1', i, eol), 16) : 0;
        i = eol + 2;
        if (this.state === TRAILER) {
          if (line === 0) this.finish();
        } else if (size === 0) this.state = TRAILER;
        else {
          this.remaining = size + 2; // the data and its CRLF
          this.state = CHUNK_DATA;
        }
      }
    }
  }
}

/** A set of keep-alive connections sharing one request generator; runs timed phases over them. */
export class Load {
  private readonly conns: Connection[] = [];
  private sending = false;
  private recording = false;
  private counts = { ok: 0, non2xx: 0, errors: 0, timeouts: 0, statuses: {} as Record<string, number> };
  private lat = new Float64Array(1 << 16);
  private n = 0;
  private idle: (() => void) | null = null;
  closed = false;

  constructor(
    targets: Array<{ url: string; connections: number }>,
    headers: Record<string, string>,
    private readonly next: () => BenchRequest,
    private readonly timeoutMs: number,
  ) {
    for (const t of targets) {
      const encode = encoder(t.url, headers);
      for (let c = 0; c < t.connections; c++) this.conns.push(new Connection(new URL(t.url), encode, this));
    }
  }

  open(): Promise<void[]> {
    return Promise.all(this.conns.map((c) => c.open()));
  }

  /** Sends back to back on every connection for `seconds`, then waits for the answers in flight. */
  async phase(seconds: number, record: boolean): Promise<PhaseResult> {
    this.counts = { ok: 0, non2xx: 0, errors: 0, timeouts: 0, statuses: {} };
    this.n = 0;
    this.recording = record;
    this.sending = true;
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const c of this.conns) if (c.busy && now - c.sentAt > this.timeoutMs) c.fail(true);
    }, 100);
    const t0 = performance.now();
    for (const c of this.conns) this.kick(c);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    this.sending = false;
    const elapsedS = (performance.now() - t0) / 1000;
    const counts = this.counts;
    const latencies = this.lat.slice(0, this.n);
    this.recording = false;
    if (this.conns.some((c) => c.busy)) await new Promise<void>((r) => (this.idle = r));
    clearInterval(watchdog);
    return { ...counts, latencies, elapsedS };
  }

  kick(c: Connection): void {
    if (this.sending && !c.busy) c.send(this.next());
  }

  answered(c: Connection, status: number, ms: number): void {
    if (this.sending) {
      if (status >= 200 && status < 300) {
        this.counts.ok++;
        if (this.recording) this.keep(ms);
      } else {
        this.counts.non2xx++;
        this.counts.statuses[status] = (this.counts.statuses[status] ?? 0) + 1;
      }
    }
    this.settled(c);
  }

  failed(timedOut: boolean): void {
    if (this.sending) this.counts[timedOut ? 'timeouts' : 'errors']++;
    this.whenIdle();
  }

  close(): void {
    this.closed = true;
    for (const c of this.conns) c.close();
  }

  private settled(c: Connection): void {
    if (this.sending) return this.kick(c);
    this.whenIdle();
  }

  private whenIdle(): void {
    if (this.idle && !this.conns.some((x) => x.busy)) {
      this.idle();
      this.idle = null;
    }
  }

  private keep(ms: number): void {
    if (this.n === this.lat.length) {
      const bigger = new Float64Array(this.lat.length * 2);
      bigger.set(this.lat);
      this.lat = bigger;
    }
    this.lat[this.n++] = ms;
  }
}

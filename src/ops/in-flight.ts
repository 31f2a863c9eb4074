/**
 * The work in flight, as load shedding counts it (src/ops/load-shedding.ts, docs/operations.md).
 *
 * - A request counts from its headers, so that requests arriving together cannot all pass the
 *   ceiling before any of them is counted (hundreds of device batches whose headers came in one turn
 *   of the event loop did, when requests counted only once their bodies were in), and a refused
 *   request costs no body read or parse.
 * - It weighs one, plus one for every full BODY_UNIT_BYTES of its body: a device batch of 500 fixes
 *   (~95 KB) costs the server ~20 ms, a cached read well under one. The weight is taken from
 *   Content-Length at the headers and corrected to the body's real size (inflated, when gzipped)
 *   once it is in.
 * - An upload still unfinished UPLOAD_GRACE_MS after its headers stops counting until its body is in:
 *   a client slow to send holds a socket, not the server's work, and slow or stalled uploads must not
 *   make the node refuse everyone else.
 */

/**
 * A request's body counts one more for every this many bytes of it. 16 KiB (a 500-fix batch weighing 6)
 * still let ten batches queue on PostgreSQL on a 2-core host, where each took ~200 ms beside the
 * database's own processes, and reads waited over 2 s behind them; at 8 KiB a batch weighs 12 and
 * both databases answered within 2 s (bench/RESULTS.md, Overload).
 */
export const BODY_UNIT_BYTES = 8_192;
/** How long an upload in progress counts before it stops counting until its body is in. */
export const UPLOAD_GRACE_MS = 1000;

export const weightOf = (bodyBytes: number): number => 1 + Math.floor(bodyBytes / BODY_UNIT_BYTES);

export interface Ticket {
  weight: number;
  /** Counted in the total now (false while an upload is past its grace). */
  counted: boolean;
  /** When its upload started (headers in), while its body is still coming; null once it is in. */
  uploadingSince: number | null;
}

export class InFlightWork {
  private total = 0;
  private readonly uploading = new Set<Ticket>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The weight counted now. */
  get count(): number {
    this.sweep();
    return this.total;
  }

  /** Counts a request from its headers; `uploading` when a body is still to come. */
  admit(weight: number, uploading: boolean): Ticket {
    const t: Ticket = { weight, counted: true, uploadingSince: uploading ? this.now() : null };
    this.total += weight;
    if (uploading) this.uploading.add(t);
    return t;
  }

  /** The body is in: from now on the request counts `weight` (again, if its upload had stopped counting). */
  settle(t: Ticket, weight: number): void {
    if (t.uploadingSince === null) return;
    this.uploading.delete(t);
    t.uploadingSince = null;
    this.total += weight - (t.counted ? t.weight : 0);
    t.weight = weight;
    t.counted = true;
  }

  /** The request ended (answered, or its connection dropped). */
  release(t: Ticket): void {
    this.uploading.delete(t);
    if (t.counted) this.total -= t.weight;
    t.counted = false;
  }

  /** Uploads past their grace stop counting; checked at most every 100 ms. */
  private sweep(): void {
    const now = this.now();
    if (this.uploading.size === 0 || now - this.lastSweep < 100) return;
    this.lastSweep = now;
    for (const t of this.uploading) {
      // in the order the uploads started
      if (now - t.uploadingSince! < UPLOAD_GRACE_MS) break;
      this.uploading.delete(t);
      if (t.counted) this.total -= t.weight;
      t.counted = false;
    }
  }
}

/**
 * An answer body written straight into one buffer of UTF-8 bytes, piece by piece. A vehicle-day of
 * history is ~8,640 points of ~25 pieces each: joined as strings, every piece is a string of its own,
 * every point a tree of them, and the ~2.5 MB result is flattened and then encoded again to be sent;
 * written here, the pieces that are numbers or plain ASCII never become strings and the answer leaves
 * as the buffer it was written in (./history-postgres.ts).
 */
export class BodyBytes {
  private buf: Buffer;
  private at = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(1024, capacity));
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  /** Bytes already encoded (./history-postgres.ts encodes each constant piece once). */
  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    // A few bytes are copied faster one at a time than through a call of set.
    if (n > 32) this.buf.set(b, this.at);
    else for (let i = 0; i < n; i++) this.buf[this.at + i] = b[i];
    this.at += n;
  }

  /** One byte. */
  byte(c: number): void {
    this.room(1);
    this.buf[this.at++] = c;
  }

  /** Any text, encoded as UTF-8. */
  text(s: string): void {
    this.room(s.length * 3);
    this.at += this.buf.write(s, this.at);
  }

  /** s[from, to): copied a character at a time while it is ASCII (numbers, times), encoded if not. */
  ascii(s: string, from = 0, to = s.length): void {
    this.room(to - from);
    const buf = this.buf;
    let at = this.at;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        this.at = at;
        this.text(s.slice(i, to));
        return;
      }
      buf[at++] = c;
    }
    this.at = at;
  }

  /** s[from, to) as a JSON string (JSON.stringify's bytes). */
  json(s: string, from = 0, to = s.length): void {
    this.room(to - from + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 0x22;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      // Only printable ASCII other than `"` and `\` is written as it is; anything else, JSON.stringify.
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return this.text(JSON.stringify(s.slice(from, to)));
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  /** `c` written `n` times. */
  repeat(c: number, n: number): void {
    if (n <= 0) return;
    this.room(n);
    for (let i = 0; i < n; i++) this.buf[this.at++] = c;
  }

  /** The bytes written: a view of the buffer, which the writer no longer touches. */
  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

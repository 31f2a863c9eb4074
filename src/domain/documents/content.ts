/**
 * What a document file's bytes are, and whether that agrees with the type it was declared as
 * (docs/records.md, "Content types"). The bytes are inspected as they stream into the blob store:
 * binary formats are recognized by `file-type` from the first bytes; text is recognized by reading the
 * whole file (valid UTF-8, no NUL byte), and told apart as HTML, XML or plain text by how it starts.
 * A refusal fails the stream, so the blob store keeps nothing.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../core/errors.js';

/** Bytes kept for recognizing binary formats (file-type reads a few kilobytes at most for the types accepted). */
const HEAD_BYTES = 64 * 1024;

/** Declared types that say nothing about the content: the bytes decide. */
export const GENERIC_TYPES: readonly string[] = ['application/octet-stream'];

/** Media types that name the same content (file-type names a HEIC photo by its brand). */
const SAME: Record<string, readonly string[]> = {
  'image/heic': ['image/heif', 'image/heic-sequence', 'image/heif-sequence'],
  'image/heif': ['image/heic', 'image/heic-sequence', 'image/heif-sequence'],
};

/** The WHATWG MIME-sniffing tags that mark HTML, after any BOM and leading white space. */
const HTML_START = /^<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/i;

/** What the bytes are: a recognized type, or null with why they are not text either. */
export interface Recognized {
  type: string | null;
  notText: string | null;
}

export async function recognize(head: Buffer, notText: string | null): Promise<Recognized> {
  const binary = await fileTypeFromBuffer(head);
  if (binary) return { type: binary.mime, notText };
  if (notText) return { type: null, notText };
  const start = head
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (HTML_START.test(start)) return { type: 'text/html', notText: null };
  if (/^<\?xml[\s?]/.test(start)) return { type: 'application/xml', notText: null };
  return { type: 'text/plain', notText: null };
}

/** `file: the bytes are …`: the field, then what is wrong with its bytes. */
const refuse = (field: string, problem: string) => new AppError('validation_failed', `${field}: ${problem}`);

const matches = (declared: string, found: string) => declared === found || (SAME[declared]?.includes(found) ?? false);

/**
 * The type a file is stored with: the declared type when the bytes agree with it; for a generic or
 * missing declaration (null), the recognized type when it is accepted. Otherwise a 400 naming `field`.
 */
export function settleType(
  field: string,
  declared: string | null,
  found: Recognized,
  accepted: readonly string[],
): string {
  const list = accepted.join(', ');
  if (declared === null) {
    if (found.type === null) throw refuse(field, `the type of the bytes was not recognized; declare one of: ${list}`);
    if (!accepted.includes(found.type))
      throw refuse(field, `the bytes are ${found.type}, which is not accepted; accepted types: ${list}`);
    return found.type;
  }
  if (found.type !== null && matches(declared, found.type)) return declared;
  if (found.type !== null) throw refuse(field, `the bytes are ${found.type}, not the declared ${declared}`);
  if (declared === 'text/plain') throw refuse(field, `the bytes are not text/plain: ${found.notText}`);
  throw refuse(field, `the bytes are not ${declared}: no known file type was recognized in them`);
}

/**
 * A pass-through stream that inspects what passes: it keeps the first bytes, checks the whole stream
 * for text, and at the end settles the type (`type`), failing the stream with the 400 on a mismatch.
 * `skip` says when not to judge at the end (an empty or cut-off file, which is refused for that).
 */
export class ContentCheck extends Transform {
  type: string | null = null;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private size = 0;
  private notText: string | null = null;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly field: string,
    private readonly declared: string | null,
    private readonly accepted: readonly string[],
    private readonly skip: () => boolean = () => false,
  ) {
    super();
  }

  private text(chunk: Buffer | null): void {
    if (this.notText) return;
    if (chunk?.includes(0)) {
      this.notText = 'they contain NUL bytes';
      return;
    }
    try {
      if (chunk) this.decoder.decode(chunk, { stream: true });
      else this.decoder.decode();
    } catch {
      this.notText = 'they are not valid UTF-8';
    }
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.headBytes < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
    }
    this.text(chunk);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    if (this.size === 0 || this.skip()) return cb();
    this.text(null);
    recognize(Buffer.concat(this.head), this.notText)
      .then((found) => {
        this.type = settleType(this.field, this.declared, found, this.accepted);
        cb();
      })
      .catch((err: Error) => cb(err));
  }
}

/**
 * Request bodies sent with `Content-Encoding: gzip` (devices on metered links compress their batches):
 * a preParsing hook that inflates them with node:zlib before the JSON parser. The body limit holds on
 * both sides: the compressed body and the inflated one are each at most the route's limit, so a small
 * body that inflates to gigabytes is refused, not inflated. Other encodings are refused by name.
 */
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../core/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The size of a gzipped body once inflated (undefined when it came as it is). */
    inflatedBytes?: number;
  }
}

const TOO_LARGE = 'request body is larger than the limit';

export async function gunzipBody(
  req: FastifyRequest,
  _reply: unknown,
  payload: NodeJS.ReadableStream,
): Promise<NodeJS.ReadableStream> {
  const encoding = String(req.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === '' || encoding === 'identity') return payload;
  if (encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw badRequest(
      `Content-Encoding ${encoding} is not supported: send the body as it is, or gzip it (Content-Encoding: gzip)`,
    );
  }
  const limit = req.routeOptions.bodyLimit ?? 1_048_576;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) throw badRequest(TOO_LARGE);
    chunks.push(chunk);
  }
  let body: Buffer;
  try {
    body = gunzipSync(Buffer.concat(chunks), { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw badRequest(TOO_LARGE);
    throw badRequest('body is not valid gzip (Content-Encoding: gzip)');
  }
  req.inflatedBytes = body.length; // what the request weighs in flight (src/ops/load-shedding.ts)
  // Fastify compares the bytes received with Content-Length: those are the compressed ones.
  return Object.assign(Readable.from([body]), { receivedEncodedLength: received });
}

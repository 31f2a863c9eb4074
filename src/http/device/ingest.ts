/**
 * The device API (docs/device-protocol.md): `POST /device/v1/batches` with a device credential. Each
 * record gets its own result; the answer comes only after the accepted records are committed. Records
 * go through the app's telemetry service, which src/workers.ts starts and stops.
 */
import { Type } from 'typebox';
import type { Api } from '../api.js';
import { ErrorBody } from '../plumbing/envelope.js';
import { authenticateDeviceRequest, checkNamedDevice } from '../../telemetry/device-auth.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import { gunzipBody } from '../plumbing/gzip-body.js';

const Result = Type.Object({
  index: Type.Integer({ description: 'Position of the record in the batch (0-based)' }),
  seq: Type.Union([Type.Integer(), Type.Null()], { description: "The record's seq, or null when it had no valid one" }),
  status: Type.String({ enum: ['accepted', 'duplicate', 'rejected'] }),
  error_message: Type.Optional(Type.String({ description: 'Why the record was rejected' })),
  late: Type.Optional(
    Type.Boolean({ description: 'Stored, but older than what was already processed: derived data ignores it' }),
  ),
});

const BatchResponse = Type.Object({
  accepted: Type.Integer(),
  duplicates: Type.Integer(),
  rejected: Type.Integer(),
  results: Type.Array(Result),
});

export async function ingestRoutes(app: Api) {
  const cfg = app.config.telemetry;
  const telemetry = app.telemetry;

  const Body = Type.Object({
    device: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "The device's identifier (serial); when given it must be the credential's device",
      }),
    ),
    records: Type.Array(Type.Unknown(), {
      minItems: 1,
      maxItems: cfg.maxBatch,
      description: 'Typed records (docs/device-protocol.md)',
    }),
  });

  app.post(
    '/device/v1/batches',
    {
      config: { rateLimitBy: 'device', recordsField: 'records' },
      // The credential is checked before the body: a request without one is a 401 whatever it carries.
      onRequest: async (req) => {
        (req as unknown as { device: DevicePrincipal }).device = await authenticateDeviceRequest(app.db, req);
      },
      preParsing: gunzipBody,
      schema: {
        tags: ['device'],
        summary: 'Send a batch of telemetry records (device credential: Authorization: Bearer <device token>)',
        body: Body,
        response: { 200: BatchResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const device = (req as unknown as { device: DevicePrincipal }).device;
      await checkNamedDevice(app.db, device, req.body.device);
      return telemetry.ingest(device, 0, req.body.records);
    },
  );
}

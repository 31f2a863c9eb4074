/**
 * Shared pieces of the record-area tests (messages, fuel purchases, documents, geofences): wire key
 * lists in their serialized order, a multipart body builder, a private blob folder per app, and helpers
 * that create records through the API.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp, TestCompany } from '../helper.js';

export const MESSAGE_KEYS = ['id', 'body', 'sender', 'recipient', 'sent_at', 'read_at'];
export const FUEL_KEYS = [
  'id',
  'offline_id',
  'purchased_at',
  'jurisdiction',
  'fuel_type',
  'ref_no',
  'vendor',
  'total_cost',
  'currency',
  'fuel',
  'fuel_unit',
  'odometer',
  'odometer_unit',
  'receipt_upload_url',
  'receipt_filename',
  'source',
  'uploader',
  'vehicle',
  'driver',
  'created_at',
  'updated_at',
];
export const DOCUMENT_KEYS = [
  'id',
  'name',
  'doc_type',
  'notes',
  'status',
  'doc_time',
  'driver',
  'vehicle',
  'file_name',
  'content_type',
  'size_bytes',
  'sha256',
  'download_url',
  'upload_url',
  'created_at',
  'updated_at',
  'category',
  'ref_no',
  'doc_date',
  'doc_fields',
  'document_form_id',
  'uploader',
];
export const GEOFENCE_KEYS = [
  'id',
  'name',
  'category',
  'status',
  'description',
  'address',
  'shape',
  'location_points',
  'holes',
  'center',
  'radius_m',
  'created_at',
  'updated_at',
];
export const VEHICLE_SUMMARY_KEYS = ['id', 'number', 'year', 'make', 'model', 'vin', 'metric_units'];

/** The app's environment with a fresh blob folder of its own. */
export function blobEnv(extra: Record<string, string> = {}): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-test-blobs-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return { env: { BLOB_DIR: dir, ...extra }, dir };
}

/** Every file under `dir`, relative paths, sorted. */
export function filesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${name}/`);
      else out.push(`${prefix}${name}`);
    }
  };
  walk(dir, '');
  return out.sort();
}

export interface FilePart {
  name: string;
  type: string;
  data: Buffer | string;
  field?: string;
}

/** A multipart/form-data request: text fields first (or `fieldsAfter`), then the files. */
export function multipart(
  fields: Record<string, string>,
  files: FilePart[] = [],
  fieldsAfter: Record<string, string> = {},
) {
  const b = `----fleet-test-${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  const field = (k: string, v: string) =>
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const [k, v] of Object.entries(fields)) field(k, v);
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data));
    parts.push(Buffer.from('\r\n'));
  }
  for (const [k, v] of Object.entries(fieldsAfter)) field(k, v);
  parts.push(Buffer.from(`--${b}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${b}` } };
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
/** A 1×1 PNG: signature, IHDR, IDAT, IEND. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
/** The start of a JPEG (SOI, a JFIF APP0 segment), then arbitrary bytes. */
export const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.from([0, 1, 2, 250, 251, 252, 10, 13]),
]);
export const HTML = Buffer.from('<!DOCTYPE html>\n<html><body><script>alert(document.cookie)</script></body></html>\n');

/** Uploads a PDF document (multipart) and returns the wire document. */
export async function uploadDocument(
  t: TestApp,
  fields: Record<string, string> = {},
  file: Partial<FilePart> = {},
  as?: TestCompany,
): Promise<any> {
  const res = await t.call({
    method: 'POST',
    url: '/v1/documents',
    ...multipart(fields, [{ name: 'bol.pdf', type: 'application/pdf', data: PDF, ...file }]),
    as,
  });
  assert.equal(res.status, 201, `upload document: ${JSON.stringify(res.body)}`);
  return res.body.document;
}

export async function createFuelPurchase(
  t: TestApp,
  fields: Record<string, unknown> = {},
  as?: TestCompany,
): Promise<any> {
  const payload = { purchased_at: today(), jurisdiction: 'TX', fuel: 50, ...fields };
  const res = await t.call({ method: 'POST', url: '/v1/fuel_purchases', payload, as });
  assert.equal(res.status, 201, `create fuel purchase: ${JSON.stringify(res.body)}`);
  return res.body.fuel_purchase;
}

/** A unit square near Columbus, OH, as location_points. */
export const SQUARE = [
  { lat: 40.0, lon: -83.0 },
  { lat: 40.0, lon: -82.99 },
  { lat: 40.01, lon: -82.99 },
  { lat: 40.01, lon: -83.0 },
];

export async function createGeofence(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  const res = await t.call({
    method: 'POST',
    url: '/v1/geofences',
    payload: { name: 'Yard', location_points: SQUARE, ...fields },
    as,
  });
  assert.equal(res.status, 201, `create geofence: ${JSON.stringify(res.body)}`);
  return res.body.geofence;
}

/** Today's UTC date, or `days` away from it, as YYYY-MM-DD. */
export function today(days = 0): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The domain events recorded for one subject type, in order. */
export async function eventsOf(
  t: TestApp,
  type: string,
): Promise<Array<{ action: string; trigger: string | null; subject_id: string }>> {
  return t.db.kysely
    .selectFrom('domain_events')
    .select(['action', 'trigger', 'subject_id'])
    .where('subject_type', '=', type)
    .orderBy('id')
    .execute();
}

/**
 * Device credentials on the device API: `Authorization: Bearer <device token>` (or `X-Device-Token`),
 * resolved by the devices service (`authenticateDevice`). Refusals carry a clear error_message:
 * - no credential, or one no device has → 401;
 * - the credential of a revoked device → 403;
 * - a batch naming (`device`) another device than the credential's: 403 when it is a device of the
 *   same company, 404 when it is unknown or belongs to another company (never confirming it exists).
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../storage/db.js';
import { AppError } from '../core/errors.js';
import { authenticateDevice, deviceByIdentifier, type DevicePrincipal } from '../domain/devices/service.js';
import { revokedIdentifier } from '../domain/devices/revoked.js';

export function deviceCredential(req: Pick<FastifyRequest, 'headers'>): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^(?:Bearer|Device)\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1].trim();
  }
  const h = req.headers['x-device-token'];
  const v = Array.isArray(h) ? h[0] : h;
  return v && v.trim() ? v.trim() : null;
}

export async function authenticateDeviceRequest(
  db: Db,
  req: Pick<FastifyRequest, 'headers'>,
): Promise<DevicePrincipal> {
  const credential = deviceCredential(req);
  if (!credential) {
    throw new AppError(
      'unauthenticated',
      'device credential required: send Authorization: Bearer <device token> (the token fleet device create printed)',
    );
  }
  const device = await authenticateDevice(db, credential);
  if (!device) {
    const revoked = await revokedIdentifier(db, credential);
    if (revoked !== null)
      throw new AppError('forbidden', `device ${revoked} has been revoked; provision a new device for this vehicle`);
    throw new AppError('invalid_token', 'invalid device credential');
  }
  return device;
}

/** A batch that names its device must name the credential's device. */
export async function checkNamedDevice(db: Db, device: DevicePrincipal, named: string | undefined): Promise<void> {
  if (named !== undefined && named.trim() === '')
    throw new AppError(
      'validation_failed',
      'device must be the identifier of the sending device, or left out; got an empty string',
    );
  if (named !== undefined && named.trim() !== device.identifier) {
    const other = await deviceByIdentifier(db, named);
    if (other && other.companyId === device.companyId) {
      throw new AppError('forbidden', `this credential belongs to device ${device.identifier}, not ${named.trim()}`);
    }
    throw new AppError('not_found', `device ${named.trim()} not found`);
  }
}

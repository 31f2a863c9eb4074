/**
 * The uuid of a stored location point (docs/reference/wire.md §2.7: location-point ids are uuids), derived from
 * the record's row id so that it is stable and unique: a fixed version-4-shaped prefix and the row id
 * as the last 12 hex digits. The database builds the same text for the history (queries/locations.ts).
 */
export const POINT_ID_PREFIX = '6c6f6361-7469-4f6e-8000-';

export function pointId(recordId: number): string {
  return pointIdOfHex(recordId.toString(16));
}

/** The same uuid from the row id already written in hex (as PostgreSQL's `to_hex` gives it). */
export function pointIdOfHex(hex: string): string {
  return POINT_ID_PREFIX + hex.padStart(12, '0');
}

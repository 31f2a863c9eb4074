/**
 * The uuid of a stored location point (wire-format §2.7: location-point ids are uuids), derived from
 * the record's row id so that it is stable and unique: the last 12 hex digits are the row id.
 */
export function pointId(recordId: number): string {
  const h = (Math.imul(recordId ^ 0x5bd1e995, 0x27d4eb2d) >>> 0).toString(16).padStart(8, '0');
  return `${h}-${h.slice(0, 4)}-4${h.slice(4, 7)}-8${h.slice(1, 4)}-${recordId.toString(16).padStart(12, '0')}`;
}


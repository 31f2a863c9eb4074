/**
 * The uuid of a stored location point (wire-format §2.7: location-point ids are uuids), derived from
 * the record's row id so that it is stable and unique: the last 12 hex digits are the row id.
 */
export function pointId(recordId: number): string {
  let h = Math.imul(recordId ^ 0x5bd1e995, 0x27d4eb2d) >>> 0;
  const a = h.toString(16).padStart(8, '0');
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  const b = h.toString(16).padStart(8, '0');
  return `${a}-${b.slice(0, 4)}-4${b.slice(4, 7)}-8${a.slice(0, 3)}-${recordId.toString(16).padStart(12, '0')}`;
}


/**
 * The geography indexes that device data needs — the IFTA jurisdiction outlines and the place names —
 * are built on first use and kept for the life of the process. Building them is one synchronous
 * stretch of about a second of CPU (more on a busy host); a server builds them before it listens, so
 * that the first device batch after a start does not hold the event loop (and every other request,
 * the health probes included) for that long.
 */
import { jurisdictionIndex } from '../../domain/ifta/boundaries.js';
import { describe } from './places.js';

export function warmGeography(): void {
  jurisdictionIndex();
  describe(0, 0);
}

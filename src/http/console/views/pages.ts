/**
 * The vehicle states of the console, named once for the map page (./map-page.ts) and the dashboard.
 * (The map page is ./map-page.ts, the dispatch board ./dispatch-board.ts.)
 */
import type { FleetState } from './fleet.js';

/** The states of src/http/console/views/fleet.ts with their labels, in the order the filter offers them. */
export const STATES: Array<[FleetState, string]> = [
  ['moving', 'Moving'],
  ['idling', 'Idling'],
  ['stopped', 'Stopped'],
  ['offline', 'Offline'],
  ['never_reported', 'Never reported'],
];

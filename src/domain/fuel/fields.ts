/** Value sets of the fuel purchase record (docs/reference/wire.md §4.25, §9). */
export { FUEL_TYPES } from '../vehicles/fields.js';
export const FUEL_UNITS = ['gal', 'l'] as const;
export const ODOMETER_UNITS = ['mi', 'km'] as const;
/** How a purchase was recorded: through this API, by a driver in the app, or from a fuel-card feed. */
export const FUEL_SOURCES = ['api', 'driver', 'fuel_card'] as const;
/** The `vehicle_type` filter: only purchases of IFTA-reporting vehicles, or all. */
export const VEHICLE_TYPES = ['ifta', 'all'] as const;
/** How far back the list reaches when no start_date is sent, days. */
export const DEFAULT_WINDOW_DAYS = 7;

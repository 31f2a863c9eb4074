/**
 * Shared by the telemetry wire mappers: location-point ids and unit conversion to the wire (mph, miles, gallons).
 */
import { Type } from 'typebox';
export { pointId } from '../telemetry/point-id.js';

export const EldDeviceSummary = Type.Object({ id: Type.Integer(), identifier: Type.String(), model: Type.String() });

/** Wire units and their rounding, shared with the telemetry store (the current location rounds as the history). */
export { coord, gallons, miles, mph, roundOrNull as rounded } from '../telemetry/units.js';

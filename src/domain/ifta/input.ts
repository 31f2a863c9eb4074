/**
 * What a client may send to calibrate a vehicle's odometer: the body of `POST
 * /v1/ifta/odometer_calibrations`, and the input of createCalibration (./calibrations.ts), derived from it.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum, Moment } from '../../core/schema.js';

export const CALIBRATION_UNITS = ['mi', 'km'] as const;

export const CalibrationBody = Type.Object({
  vehicle_id: Id('The vehicle'),
  effective_from: Type.Optional(
    Moment('When the offset takes effect (a day is its start in X-Time-Zone); default: the whole history'),
  ),
  offset: Type.Optional(Type.Number({ description: 'calibrated odometer − ECM odometer, in `unit`' })),
  dashboard_odometer: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'The dashboard odometer read at effective_from, in `unit` (the offset is derived from the ECM reading then)',
    }),
  ),
  unit: Type.Optional(Enum(CALIBRATION_UNITS, 'Unit of offset and dashboard_odometer; default mi')),
  note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
});

/**
 * The body, with effective_from an ISO-8601 instant: the route reads a bare day in the request's time
 * zone. Without it the calibration applies from the start of the vehicle's history.
 */
export type CalibrationInput = Omit<Static<typeof CalibrationBody>, 'effective_from'> & { effective_from?: string };

/**
 * What a client may send to record or change a fuel purchase: the body of `POST` and `PUT
 * /v1/fuel_purchases`, and the input of the fuel purchase services, derived from it. Value sets:
 * ./fields.ts.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum, Moment, Nullable } from '../../core/schema.js';
import { FUEL_SOURCES, FUEL_TYPES, FUEL_UNITS, ODOMETER_UNITS } from './fields.js';

const opt = Type.Optional;
const Text = (maxLength = 255) => Nullable(Type.String({ maxLength }));

export const FuelPurchaseBody = Type.Object({
  offline_id: opt(
    Nullable(
      Type.String({ maxLength: 255, description: "The client's own id of the purchase, unique in the company" }),
    ),
  ),
  purchased_at: opt(Moment('A day (YYYY-MM-DD, read in X-Time-Zone) or a datetime with its offset')),
  jurisdiction: opt(Type.String({ maxLength: 8, description: 'e.g. "TX", "ON"' })),
  fuel_type: opt(Nullable(Enum(FUEL_TYPES))),
  ref_no: opt(Text()),
  vendor: opt(Text()),
  total_cost: opt(Nullable(Type.Number({ minimum: 0 }))),
  currency: opt(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code; default USD' })),
  fuel: opt(Type.Number({ description: 'Quantity bought, in fuel_unit; greater than 0' })),
  fuel_unit: opt(Enum(FUEL_UNITS, 'gal (default) or l')),
  odometer: opt(Nullable(Type.Number({ minimum: 0 }))),
  odometer_unit: opt(Nullable(Enum(ODOMETER_UNITS, 'mi (default) or km'))),
  source: opt(Enum(FUEL_SOURCES, 'How the purchase was recorded; default api')),
  vehicle_id: opt(Nullable(Id())),
  driver_id: opt(Nullable(Id())),
  receipt_document_id: opt(Nullable(Id('A document of the company holding the receipt'))),
});

/** The body, with purchased_at an ISO-8601 instant: the route reads a bare day in the request's time zone. */
export type FuelPurchaseInput = Omit<Static<typeof FuelPurchaseBody>, 'purchased_at'> & { purchased_at?: string };

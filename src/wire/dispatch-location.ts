/** The dispatch_location object and its request body (docs/reference/wire.md §4.20). */
import { Type } from 'typebox';
import { NNum, NStr } from './types.js';
import type { LocationRow } from '../domain/dispatch/locations.js';
import { Nullable } from '../core/schema.js';

const opt = Type.Optional;

export const DispatchLocation = Type.Object({
  id: Type.Integer(),
  vendor_id: NStr(),
  name: Type.String(),
  address1: Type.String(),
  address2: NStr(),
  city: Type.String(),
  state: Type.String(),
  zip: NStr(),
  country: Type.String(),
  lat: NNum(),
  lon: NNum(),
  arrive_radius: NNum(),
  depart_radius: NNum(),
  phone: NStr(),
});

const Text = (maxLength = 255) => Type.String({ maxLength });
const Radius = (what: string) =>
  opt(
    Nullable(
      Type.Number({
        exclusiveMinimum: 0,
        description: `${what} radius for automatic detection (geocoded locations only)`,
      }),
    ),
  );

export const DispatchLocationBody = Type.Object({
  id: opt(
    Type.Integer({ minimum: 1, description: 'PUT/DELETE: names the location by id (then vendor_id may be changed)' }),
  ),
  vendor_id: opt(
    Nullable(
      Type.String({ minLength: 1, maxLength: 255, description: "The client's identifier, unique in the company" }),
    ),
  ),
  name: opt(Text()),
  address1: opt(Text()),
  address2: opt(Nullable(Text())),
  city: opt(Text()),
  state: opt(Text(64)),
  zip: opt(Nullable(Text(32))),
  country: opt(Text(64)),
  phone: opt(Nullable(Text(64))),
  lat: opt(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
  lon: opt(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  arrive_radius: Radius('Arrival'),
  depart_radius: Radius('Departure'),
});

export const LocationRefQuery = Type.Object({
  id: opt(Type.Integer({ minimum: 1, description: 'The location to change or delete, by id' })),
  vendor_id: opt(
    Type.String({ minLength: 1, maxLength: 255, description: 'The location to change or delete, by vendor_id' }),
  ),
});

export function dispatchLocationWire(l: LocationRow) {
  return {
    id: l.id,
    vendor_id: l.vendor_id,
    name: l.name,
    address1: l.address1,
    address2: l.address2,
    city: l.city,
    state: l.state,
    zip: l.zip,
    country: l.country,
    lat: l.lat === null ? null : Number(l.lat),
    lon: l.lon === null ? null : Number(l.lon),
    arrive_radius: l.arrive_radius === null ? null : Number(l.arrive_radius),
    depart_radius: l.depart_radius === null ? null : Number(l.depart_radius),
    phone: l.phone,
  };
}

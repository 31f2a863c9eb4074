/**
 * The dispatch_location object (docs/reference/wire.md §4.20). Its request body is the dispatch area's
 * (src/domain/dispatch/location-input.ts).
 */
import { Type } from 'typebox';
import { NNum, NStr } from './types.js';
import type { LocationRow } from '../domain/dispatch/locations.js';

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

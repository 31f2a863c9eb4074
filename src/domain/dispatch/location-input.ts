/**
 * What a client may send to create or change a dispatch location: the body of `POST` and `PUT
 * /v1/dispatch_locations` (and `PUT /v1/dispatch_locations/:id`), the query string and `DELETE` body that
 * name a location, and the input of createLocation and updateLocation, derived from the body. The
 * dispatch bodies themselves: ./input.ts.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from '../../core/schema.js';

const opt = Type.Optional;
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

/**
 * The body without its id: the route settles first which location a PUT names, and whether the body's
 * vendor_id is a new value or only names it.
 */
export type LocationInput = Omit<Static<typeof DispatchLocationBody>, 'id'>;

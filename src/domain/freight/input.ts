/**
 * What a client may send to freight visibility, and the service inputs derived from it: a carrier's
 * share (`POST /v1/freight_visibility/shares`), and a shipper's subscription (`POST`, `PUT` and `DELETE
 * /v1/freight_visibility/subscribe`), whose parameters come in the query string, as the real API documents
 * them, or in a JSON body; a field in both places is taken from the body.
 */
import { Type, type Static, type TProperties } from 'typebox';
import { Id } from '../../core/ids.js';

const opt = Type.Optional;
const Str = (max: number, description?: string) => Type.String({ maxLength: max, description });

export const ShareBody = Type.Object({
  shipper_company_id: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ maxLength: 32 })], {
    description: 'The shipper or broker: its company id (5) or company code (FP0000005)',
  }),
  vehicle_ids: Type.Array(Id(), { minItems: 1, maxItems: 1000, description: 'Your vehicles to share' }),
  start_time: Type.String({ maxLength: 64, description: 'ISO-8601 datetime the share starts' }),
  end_time: Type.String({ maxLength: 64, description: 'ISO-8601 datetime the share ends; in the future' }),
});

export type ShareInput = Static<typeof ShareBody>;

/** A parameter that is text in the query string and text or a number in a JSON body. */
const IdParam = (description: string, inBody: boolean) =>
  opt(inBody ? Type.Union([Str(32), Type.Integer()], { description }) : Str(32, description));

function subscribeParams(inBody: boolean) {
  return {
    company_id: IdParam('The carrier: its company id (5) or company code (FP0000005)', inBody),
    dot_id: opt(Str(32, 'The carrier, by one of its DOT ids (instead of company_id)')),
    vehicle_id: IdParam('The vehicle to track', inBody),
    vehicle_name: opt(Str(255, 'The vehicle to track, by its number')),
    driver_id: IdParam('The vehicle to track, by its current driver', inBody),
    asset_id: IdParam('Not supported: only vehicles can be tracked', inBody),
    start_time: opt(Str(64, 'ISO-8601 datetime; at most 2 weeks from now')),
    end_time: opt(Str(64, 'ISO-8601 datetime; 1 hour to 5 days after start_time')),
    load_id: opt(Str(255)),
    load_details: opt(Str(2000)),
  };
}

function modifyParams(inBody: boolean) {
  return {
    tracking_subscription_id: IdParam('The subscription', inBody),
    start_time: opt(Str(64, 'New start: only earlier than the current one')),
    end_time: opt(Str(64, 'New end: only later than the current one')),
  };
}

const cancelParams = (inBody: boolean) => ({ tracking_subscription_id: IdParam('The subscription', inBody) });

/** A JSON body of the subscribe operations: the parameters, or nothing (they are in the query string). */
const bodyOf = <P extends TProperties>(props: P) => Type.Union([Type.Object(props), Type.Null()]);

export const SubscribeQuery = Type.Object(subscribeParams(false));
export const SubscribeBody = bodyOf(subscribeParams(true));
export const ModifyQuery = Type.Object(modifyParams(false));
export const ModifyBody = bodyOf(modifyParams(true));
export const CancelQuery = Type.Object(cancelParams(false));
export const CancelBody = bodyOf(cancelParams(true));

/** The parameters of the query string and the body together (src/http/public-api/v1/freight-visibility.ts). */
export type SubscribeInput = NonNullable<Static<typeof SubscribeBody>>;
export type ModifyInput = NonNullable<Static<typeof ModifyBody>>;
export type CancelInput = NonNullable<Static<typeof CancelBody>>;

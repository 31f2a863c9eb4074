/**
 * /v1/freight_visibility: a shipper or broker tracking vehicles that carriers share with it
 * (scopes freight_visibility_vehicle_locations.read and .manage; docs/freight-visibility.md).
 * The subscribe operations take their parameters from the query string, as the real API documents
 * them, or from a JSON body; a field in both places is taken from the body (the schemas of both:
 * src/domain/freight/input.ts).
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery, Success } from '../../plumbing/envelope.js';
import { validation } from '../../../core/errors.js';
import { userSummary } from '../../../wire/summaries.js';
import {
  AssociationBody,
  CompaniesBody,
  FreightVehicleLocation,
  SubscribeResponse,
  SubscriptionsBody,
  currentLocation,
  freightCompany,
} from '../../../wire/freight.js';
import { userSummaryRows } from '../../../domain/users/summaries.js';
import { dotIds, resolveCarrier, sharingCarriers } from '../../../domain/freight/parties.js';
import { liveVehicleLocations, vehicleAssociation } from '../../../domain/freight/locations.js';
import {
  CancelBody,
  CancelQuery,
  ModifyBody,
  ModifyQuery,
  SubscribeBody,
  SubscribeQuery,
} from '../../../domain/freight/input.js';
import {
  activeSubscriptions,
  cancelSubscription,
  modifySubscription,
  subscribe,
} from '../../../domain/freight/subscriptions.js';
import { nowIso, wireTime } from '../../../storage/values.js';
import type { Db } from '../../../storage/db.js';

const opt = Type.Optional;
const Str = (max: number, description?: string) => Type.String({ maxLength: max, description });

const carrierQuery = {
  company_id: opt(Str(32, 'The carrier: company id or code')),
  dot_id: opt(Str(32, 'The carrier, by DOT id')),
};
const tags = ['freight_visibility'];

/** Query-string parameters, overridden by the JSON body's: the input of the subscription services. */
function merged<T extends object>(query: T, body: T | null | undefined): T {
  return { ...query, ...(body ?? {}) };
}

async function driversOf(db: Db, companyIds: Map<number, number[]>) {
  const out = new Map<number, ReturnType<typeof userSummary>>();
  for (const [companyId, ids] of companyIds) {
    for (const [id, u] of await userSummaryRows(db, companyId, ids)) out.set(id, userSummary(u));
  }
  return out;
}

export async function freightVisibilityRoutes(app: Api) {
  const read = { scope: 'freight_visibility_vehicle_locations.read' } as const;
  const write = { scope: 'freight_visibility_vehicle_locations.manage' } as const;

  app.get(
    '/v1/freight_visibility/companies',
    {
      config: read,
      schema: {
        tags,
        summary: 'Carriers that share vehicles with your company',
        response: { 200: CompaniesBody, ...errorResponses },
      },
    },
    async (req) => ({
      data: { companies: (await sharingCarriers(app.db, req.auth.companyId, nowIso())).map(freightCompany) },
    }),
  );

  app.get(
    '/v1/freight_visibility/vehicle_locations',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your live subscriptions with the current location and driver of each vehicle',
        querystring: Type.Object(pageQuery),
        response: { 200: listSchema('vehicles', 'vehicle', FreightVehicleLocation), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await liveVehicleLocations(app.db, req.auth, page.per_page, page.offset);
      const byCompany = new Map<number, number[]>();
      for (const { vehicle: v } of rows) {
        if (v.current_driver_id !== null)
          byCompany.set(v.company_id, [...(byCompany.get(v.company_id) ?? []), v.current_driver_id]);
      }
      const drivers = await driversOf(app.db, byCompany);
      const carriers = new Map((await sharingCarriers(app.db, req.auth.companyId, nowIso())).map((c) => [c.id, c]));
      const items = rows.map(({ subscription: s, vehicle: v, location }) => ({
        id: v.id,
        number: v.number,
        year: v.year,
        make: v.make,
        model: v.model,
        vin: v.vin,
        current_location: currentLocation(location),
        current_driver: v.current_driver_id === null ? null : (drivers.get(v.current_driver_id) ?? null),
        company: freightCompany(carriers.get(s.carrier_company_id)!),
        tracking_subscription_id: s.id,
        start_time: wireTime(s.start_time)!,
        end_time: wireTime(s.end_time)!,
        load_id: s.load_id,
        load_details: s.load_details,
      }));
      return listBody('vehicles', 'vehicle', items, page, total);
    },
  );

  app.get(
    '/v1/freight_visibility/vehicle_association',
    {
      config: read,
      schema: {
        tags,
        summary: "A carrier's vehicles shared with you now, nearest first when lat and lon are given",
        querystring: Type.Object({
          ...carrierQuery,
          lat: opt(Type.Number({ minimum: -90, maximum: 90 })),
          lon: opt(Type.Number({ minimum: -180, maximum: 180 })),
          expected_time: opt(Str(64, 'Accepted; vehicles are not scored')),
        }),
        response: { 200: AssociationBody, ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      if ((q.lat === undefined) !== (q.lon === undefined))
        throw validation(q.lat === undefined ? 'lat' : 'lon', 'is required together with the other coordinate');
      const { carrier, rows } = await vehicleAssociation(app.db, req.auth, q);
      const drivers = await driversOf(
        app.db,
        new Map([[carrier.id, rows.map((r) => r.vehicle.current_driver_id).filter((x): x is number => x !== null)]]),
      );
      const vehicles = rows.map(({ vehicle: v, distance_mi }) => {
        const d = v.current_driver_id === null ? undefined : drivers.get(v.current_driver_id);
        return {
          vehicle_id: String(v.id),
          vehicle_name: v.number,
          vin: v.vin,
          driver: d ? { id: d.id, first_name: d.first_name, last_name: d.last_name } : null,
          distance_mi,
        };
      });
      return { data: { company_id: carrier.company_code, dot_ids: dotIds(carrier), vehicles } };
    },
  );

  app.get(
    '/v1/freight_visibility/vehicle_subscriptions',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your subscriptions to a carrier that are not cancelled and not ended, by vehicle',
        querystring: Type.Object({ ...carrierQuery, vehicle_id: opt(Str(16)), vehicle_name: opt(Str(255)) }),
        response: { 200: SubscriptionsBody, ...errorResponses },
      },
    },
    async (req) => {
      const carrier = await resolveCarrier(app.db, req.auth.companyId, req.query, nowIso());
      const rows = await activeSubscriptions(app.db, req.auth, carrier.id, req.query);
      type Sub = { tracking_subscription_id: number; start_time: string; end_time: string; load_id: string | null };
      const byVehicle = new Map<number, { vehicle_id: string; vehicle_name: string; subscriptions: Sub[] }>();
      for (const r of rows) {
        const entry = byVehicle.get(r.vehicle_id) ?? {
          vehicle_id: String(r.vehicle_id),
          vehicle_name: r.number,
          subscriptions: [],
        };
        entry.subscriptions.push({
          tracking_subscription_id: r.id,
          start_time: wireTime(r.start_time)!,
          end_time: wireTime(r.end_time)!,
          load_id: r.load_id,
        });
        byVehicle.set(r.vehicle_id, entry);
      }
      return {
        data: {
          company_id: carrier.company_code,
          dot_ids: dotIds(carrier),
          vehicle_subscriptions: [...byVehicle.values()],
        },
      };
    },
  );

  app.post(
    '/v1/freight_visibility/subscribe',
    {
      config: write,
      schema: {
        tags,
        summary: 'Subscribe to the location of a shared vehicle for a window',
        querystring: SubscribeQuery,
        body: SubscribeBody,
        response: { 201: SubscribeResponse, ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await subscribe(app.db, req.auth, merged(req.query, req.body));
      return reply.code(201).send({ tracking_subscription_id: row.id });
    },
  );

  app.put(
    '/v1/freight_visibility/subscribe',
    {
      config: write,
      schema: {
        tags,
        summary: "Widen a subscription's window (start earlier, end later)",
        querystring: ModifyQuery,
        body: ModifyBody,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await modifySubscription(app.db, req.auth, merged(req.query, req.body));
      return { success: true };
    },
  );

  app.delete(
    '/v1/freight_visibility/subscribe',
    {
      config: write,
      schema: {
        tags,
        summary: 'Cancel a subscription that has not ended; it shows nothing from then on',
        querystring: CancelQuery,
        body: CancelBody,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await cancelSubscription(app.db, req.auth, merged(req.query, req.body).tracking_subscription_id);
      return { success: true };
    },
  );
}

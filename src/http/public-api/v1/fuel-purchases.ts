/**
 * /v1/fuel_purchases (scopes fuel_purchases.read, fuel_purchases.manage): full CRUD. The list covers
 * start_date..end_date (days of X-Time-Zone, inclusive; start_date defaults to 7 days before end_date
 * or today) and filters by vehicle_ids, fuel_type, jurisdictions, vehicle_type and source (docs/reference/wire.md §9).
 */
import { Type, type Static } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../api.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
  Success,
} from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList, IdParams, StrList } from '../../../wire/types.js';
import { FuelPurchase } from '../../../wire/fuel-purchase.js';
import { FuelPurchaseBody, type FuelPurchaseInput } from '../../../domain/fuel/input.js';
import { momentOf, windowOf } from '../../../wire/record-dates.js';
import * as fuel from '../../../domain/fuel/service.js';
import { DEFAULT_WINDOW_DAYS, FUEL_SOURCES, FUEL_TYPES, VEHICLE_TYPES } from '../../../domain/fuel/fields.js';
import { toIso } from '../../../storage/values.js';
import { fuelPurchasesWire } from '../../../wire/pages.js';
import { Day, Enum } from '../../../core/schema.js';

const opt = Type.Optional;

const ListQuery = Type.Object({
  ...pageQuery,
  start_date: Day(
    `First day (YYYY-MM-DD) of purchase, inclusive; default ${DEFAULT_WINDOW_DAYS} days before end_date (or today)`,
  ),
  end_date: Day('Last day (YYYY-MM-DD) of purchase, inclusive; default none'),
  vehicle_ids: IdList('Purchases for these vehicles'),
  fuel_type: opt(Enum(FUEL_TYPES)),
  jurisdictions: StrList('Purchases made in these jurisdictions (two-letter codes)'),
  vehicle_type: opt(Enum(VEHICLE_TYPES, 'ifta: only purchases for IFTA-reporting vehicles; all (default)')),
  source: opt(Enum(FUEL_SOURCES)),
});

const FuelList = listSchema('fuel_purchases', 'fuel_purchase', FuelPurchase);
const FuelOne = oneSchema('fuel_purchase', FuelPurchase);
const tags = ['fuel_purchases'];

type Body = Static<typeof FuelPurchaseBody>;

/** The body with purchased_at as an instant: a bare day is the start of that day in X-Time-Zone. */
function input(req: FastifyRequest, body: Body): FuelPurchaseInput {
  const { purchased_at, ...rest } = body;
  if (purchased_at === undefined) return rest;
  return { ...rest, purchased_at: toIso(momentOf('purchased_at', purchased_at, requestTimeZone(req))) };
}

export async function fuelPurchasesRoutes(app: Api) {
  const read = { scope: 'fuel_purchases.read' } as const;
  const write = { scope: 'fuel_purchases.manage' } as const;
  const one = async (companyId: number, row: fuel.FuelPurchaseRow) =>
    oneBody('fuel_purchase', (await fuelPurchasesWire(app.db, companyId, app.config.publicUrl, [row]))[0]);

  app.get(
    '/v1/fuel_purchases',
    {
      config: read,
      schema: {
        tags,
        summary: 'List fuel purchases',
        querystring: ListQuery,
        response: { 200: FuelList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = windowOf(req.query, requestTimeZone(req), DEFAULT_WINDOW_DAYS);
      const jurisdictions = req.query.jurisdictions?.map((j) => fuel.jurisdictionOf('jurisdictions', j));
      const filters = { ...req.query, window, jurisdictions, vehicle_type: req.query.vehicle_type };
      const { rows, total } = await fuel.listFuelPurchases(app.db, req.auth, filters, page.per_page, page.offset);
      return listBody(
        'fuel_purchases',
        'fuel_purchase',
        await fuelPurchasesWire(app.db, req.auth.companyId, app.config.publicUrl, rows),
        page,
        total,
      );
    },
  );

  app.get(
    '/v1/fuel_purchases/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a fuel purchase', params: IdParams, response: { 200: FuelOne, ...errorResponses } },
    },
    async (req) => one(req.auth.companyId, await fuel.getFuelPurchase(app.db, req.auth, req.params.id)),
  );

  app.post(
    '/v1/fuel_purchases',
    {
      config: write,
      schema: {
        tags,
        summary: 'Record a fuel purchase',
        body: FuelPurchaseBody,
        response: { 201: FuelOne, ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await fuel.createFuelPurchase(app.db, req.auth, input(req, req.body));
      return reply.code(201).send(await one(req.auth.companyId, row));
    },
  );

  app.put(
    '/v1/fuel_purchases/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a fuel purchase',
        params: IdParams,
        body: FuelPurchaseBody,
        response: { 200: FuelOne, ...errorResponses },
      },
    },
    async (req) =>
      one(req.auth.companyId, await fuel.updateFuelPurchase(app.db, req.auth, req.params.id, input(req, req.body))),
  );

  app.delete(
    '/v1/fuel_purchases/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a fuel purchase',
        params: IdParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await fuel.deleteFuelPurchase(app.db, req.auth, req.params.id);
      return { success: true };
    },
  );
}

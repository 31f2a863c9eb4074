/**
 * /v1/assets (scopes assets.read, assets.manage) and /v1/asset_locations (scope locations.asset_locations).
 * Asset locations are written by the telemetry pipeline; until it stores a fix, an asset's
 * current_location is null and its history is empty.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
} from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { windowOf } from '../../../wire/record-dates.js';
import { Asset, AssetLocation, AssetLocationPoint, assetLocationPoint } from '../../../wire/asset.js';
import * as assets from '../../../domain/assets/service.js';
import { assetLocationHistory, latestAssetLocations } from '../../../domain/assets/locations.js';
import { boundDevices } from '../../../domain/devices/service.js';
import { ASSET_STATUSES } from '../../../domain/assets/fields.js';
import { AssetBody } from '../../../domain/assets/input.js';
import { assetsWire } from '../../../wire/pages.js';
import { Day, Enum } from '../../../core/schema.js';

const opt = Type.Optional;

const ListQuery = Type.Object({
  ...pageQuery,
  name: opt(Type.String({ maxLength: 255, description: 'Assets whose name contains this text (any letter case)' })),
  status: opt(Enum(ASSET_STATUSES)),
  exact_match: opt(Type.Boolean({ description: 'With name: the whole name must match (any letter case)' })),
});

const LookupQuery = Type.Object({
  external_id: Type.String({ minLength: 1, maxLength: 255 }),
  integration_name: Type.String({ minLength: 1, maxLength: 255 }),
});

const LocationsQuery = Type.Object({ ...pageQuery, asset_ids: IdList('Only these assets') });
const HistoryQuery = Type.Object({
  ...pageQuery,
  start_date: Day('First day (YYYY-MM-DD) of the history, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD) of the history, inclusive'),
});

const AssetOne = oneSchema('asset', Asset);
const tags = ['assets'];

export async function assetsRoutes(app: Api) {
  const read = { scope: 'assets.read' } as const;
  const write = { scope: 'assets.manage' } as const;
  const locations = { scope: 'locations.asset_locations' } as const;
  const one = async (companyId: number, row: assets.AssetRow) =>
    oneBody('asset', (await assetsWire(app.db, companyId, [row]))[0]);

  app.get(
    '/v1/assets',
    {
      config: read,
      schema: {
        tags,
        summary: 'List assets',
        querystring: ListQuery,
        response: { 200: listSchema('assets', 'asset', Asset), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await assets.listAssets(app.db, req.auth, req.query, page.per_page, page.offset);
      return listBody('assets', 'asset', await assetsWire(app.db, req.auth.companyId, rows), page, total);
    },
  );

  app.get(
    '/v1/assets/lookup_by_external_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Find an asset by external_id and integration_name',
        querystring: LookupQuery,
        response: { 200: AssetOne, ...errorResponses },
      },
    },
    async (req) => one(req.auth.companyId, await assets.lookupAsset(app.db, req.auth, req.query)),
  );

  app.post(
    '/v1/assets',
    {
      config: write,
      schema: { tags, summary: 'Create an asset', body: AssetBody, response: { 201: AssetOne, ...errorResponses } },
    },
    async (req, reply) => {
      const row = await assets.createAsset(app.db, req.auth, req.body);
      return reply.code(201).send(await one(req.auth.companyId, row));
    },
  );

  app.get(
    '/v1/asset_locations',
    {
      config: locations,
      schema: {
        tags,
        summary: "The company's assets with their latest location (null until the telemetry pipeline stores one)",
        querystring: LocationsQuery,
        response: { 200: listSchema('asset_locations', 'asset_location', AssetLocation), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await assets.listAssets(
        app.db,
        req.auth,
        { ids: req.query.asset_ids },
        page.per_page,
        page.offset,
      );
      const ids = rows.map((a) => a.id);
      const [latest, gateways] = await Promise.all([
        latestAssetLocations(app.db, req.auth.companyId, ids),
        boundDevices(app.db, 'asset_id', ids),
      ]);
      const items = rows.map((a) => {
        const gw = gateways.get(a.id);
        const fix = latest.get(a.id);
        return {
          asset: {
            id: a.id,
            name: a.name,
            status: a.status,
            type: a.type,
            vin: a.vin,
            license_plate_state: a.license_plate_state,
            license_plate_number: a.license_plate_number,
            make: a.make,
            model: a.model,
          },
          asset_gateway: gw ? { id: gw.id, identifier: gw.identifier, active: true } : null,
          current_location: fix ? assetLocationPoint(fix) : null,
        };
      });
      return listBody('asset_locations', 'asset_location', items, page, total);
    },
  );

  app.get(
    '/v1/asset_locations/:id',
    {
      config: locations,
      schema: {
        tags,
        summary:
          "One asset's location history in time order, optionally within start_date..end_date (X-Time-Zone days)",
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: listSchema('asset_locations', 'asset_location', AssetLocationPoint), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = windowOf(req.query, requestTimeZone(req));
      const { rows, total } = await assetLocationHistory(
        app.db,
        req.auth,
        req.params.id,
        window,
        page.per_page,
        page.offset,
      );
      return listBody('asset_locations', 'asset_location', rows.map(assetLocationPoint), page, total);
    },
  );
}

/**
 * /v2/asset_locations/:id (scope locations.asset_locations): one asset's location history between
 * start_date and end_date (both required, X-Time-Zone days, UTC without it), with cursor pagination
 * and per_page up to 500 (docs/reference/wire.md §3.1, §9). The cursor's names are ours (the real ones are not
 * established): a page answers `pagination.next_cursor`, sent back as `cursor` for the next page, and
 * null on the last page. A cursor is opaque: the time and id of the page's last location.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, pageOf } from '../../plumbing/envelope.js';
import { validation } from '../../../core/errors.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdParams } from '../../../wire/types.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { AssetLocationPoint, assetLocationPoint } from '../../../wire/asset.js';
import { assetLocationPage, type HistoryCursor } from '../../../domain/assets/locations.js';
import { Day } from '../../../core/schema.js';

export const ASSET_HISTORY_MAX_PER_PAGE = 500;

const Query = Type.Object({
  start_date: Day('First day (YYYY-MM-DD) of the history, inclusive; required'),
  end_date: Day('Last day (YYYY-MM-DD) of the history, inclusive; required'),
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Locations per page; default 25, at most 500 (larger values are clamped)',
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The next_cursor of the previous page' })),
});

const Body = Type.Object({
  asset_locations: Type.Array(Type.Object({ asset_location: AssetLocationPoint })),
  pagination: Type.Object({ per_page: Type.Integer(), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
});

export const encodeCursor = (c: HistoryCursor) => Buffer.from(`${c.t}|${c.id}`).toString('base64url');

export function decodeCursor(raw: string): HistoryCursor {
  const [t, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (rest.length || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(t ?? '') || !/^[0-9a-f-]{36}$/.test(id ?? '')) {
    throw validation('cursor', 'is not a next_cursor of this endpoint');
  }
  return { t, id };
}

export async function assetLocationsV2Routes(app: Api) {
  app.get(
    '/v2/asset_locations/:id',
    {
      config: { scope: 'locations.asset_locations' },
      schema: {
        tags: ['Assets'],
        summary: "One asset's locations between start_date and end_date, in time order, a page at a time (cursor)",
        params: IdParams,
        querystring: Query,
        response: { 200: Body, ...errorResponses },
      },
    },
    async (req) => {
      const window = dateRange(req.query, requestTimeZone(req), { defaultDays: 1, required: true });
      const { per_page } = pageOf(req.query, ASSET_HISTORY_MAX_PER_PAGE);
      const after = req.query.cursor ? decodeCursor(req.query.cursor) : null;
      const { rows, next } = await assetLocationPage(app.db, req.auth, req.params.id, window, after, per_page);
      return {
        asset_locations: rows.map((r) => ({ asset_location: assetLocationPoint(r) })),
        pagination: { per_page, next_cursor: next ? encodeCursor(next) : null },
      };
    },
  );
}

/**
 * The carrier's side of freight visibility: /v1/freight_visibility/shares (scopes freight_visibility.read
 * and freight_visibility.manage). A carrier shares chosen vehicles with a shipper or broker for a window,
 * and can revoke the share at any time (docs/freight-visibility.md).
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
  Success,
} from '../../plumbing/envelope.js';
import { IdParams } from '../../../wire/types.js';
import { FreightShare, freightShare } from '../../../wire/freight.js';
import * as shares from '../../../domain/freight/shares.js';
import { ShareBody } from '../../../domain/freight/input.js';
import type { Db } from '../../../storage/db.js';
import { companiesByIds } from '../../../domain/companies/refs.js';

const ListQuery = Type.Object({
  ...pageQuery,
  active: Type.Optional(Type.Boolean({ description: 'Only shares that are not revoked and have not ended' })),
});

const tags = ['freight_visibility'];

async function sharesWire(db: Db, rows: shares.ShareRow[]) {
  const ids = rows.map((r) => r.id);
  const shipperIds = [...new Set(rows.map((r) => r.shipper_company_id))];
  const [vehicles, shippers] = await Promise.all([
    shares.shareVehicleIds(db, ids),
    companiesByIds(db.kysely, shipperIds),
  ]);
  const byId = new Map(shippers.map((c) => [c.id, c]));
  return rows.map((r) => freightShare(r, byId.get(r.shipper_company_id), vehicles.get(r.id) ?? []));
}

export async function freightSharesRoutes(app: Api) {
  const read = { scope: 'freight_visibility.read' } as const;
  const write = { scope: 'freight_visibility.manage' } as const;

  app.get(
    '/v1/freight_visibility/shares',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your shares of vehicles with shippers and brokers',
        querystring: ListQuery,
        response: { 200: listSchema('freight_shares', 'freight_share', FreightShare), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await shares.listShares(app.db, req.auth, req.query, page.per_page, page.offset);
      return listBody('freight_shares', 'freight_share', await sharesWire(app.db, rows), page, total);
    },
  );

  app.post(
    '/v1/freight_visibility/shares',
    {
      config: write,
      schema: {
        tags,
        summary: 'Share vehicles with a shipper or broker for a window',
        body: ShareBody,
        response: { 201: oneSchema('freight_share', FreightShare), ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await shares.createShare(app.db, req.auth, req.body);
      return reply.code(201).send(oneBody('freight_share', (await sharesWire(app.db, [row]))[0]));
    },
  );

  app.delete(
    '/v1/freight_visibility/shares/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Revoke a share: the shipper sees nothing of it from now on',
        params: IdParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await shares.revokeShare(app.db, req.auth, req.params.id);
      return { success: true };
    },
  );
}

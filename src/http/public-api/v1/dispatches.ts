/**
 * /v1/dispatches (scopes dispatches.read, dispatches.manage); /v2/dispatches registers the same routes
 * with the v2 mapping. POST creates (201); PUT names the dispatch by `vendor_id` in the body and answers
 * 200 with the dispatch as it now stands, `{"dispatch": {...}}`, not paginated.
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
import { IdList, StrList } from '../../../wire/types.js';
import { singleObjectBody } from './dispatch-body.js';
import { DispatchV1, DispatchV2 } from '../../../wire/dispatch.js';
import { CreateBody, UpdateBody, WRAPPED, dispatchInput } from '../../../domain/dispatch/input.js';
import * as dispatches from '../../../domain/dispatch/service.js';
import { dispatchesWire } from '../../../wire/pages.js';

const ListQuery = Type.Object({
  ...pageQuery,
  ids: IdList('Only these dispatches, by id'),
  vendor_ids: StrList('Only these dispatches, by vendor_id'),
});

export function registerDispatches(app: Api, version: 1 | 2) {
  const read = { scope: 'dispatches.read' } as const;
  const write = { scope: 'dispatches.manage' } as const;
  const Dispatch = version === 1 ? DispatchV1 : DispatchV2;
  const List = listSchema('dispatches', 'dispatch', Dispatch);
  const One = oneSchema('dispatch', Dispatch);
  const path = `/v${version}/dispatches`;
  const tags = [`dispatches v${version}`];
  const bodyHook = singleObjectBody('dispatch', WRAPPED);
  const one = async (companyId: number, view: dispatches.DispatchView) =>
    oneBody('dispatch', (await dispatchesWire(app.db, companyId, [view], version))[0]);

  app.get(
    path,
    {
      config: read,
      schema: { tags, summary: 'List dispatches', querystring: ListQuery, response: { 200: List, ...errorResponses } },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { views, total } = await dispatches.listDispatches(app.db, req.auth, req.query, page.per_page, page.offset);
      return listBody(
        'dispatches',
        'dispatch',
        await dispatchesWire(app.db, req.auth.companyId, views, version),
        page,
        total,
      );
    },
  );

  app.post(
    path,
    {
      config: write,
      preValidation: bodyHook,
      schema: {
        tags,
        summary: 'Create a dispatch (planned by default)',
        body: CreateBody(version),
        response: { 201: One, ...errorResponses },
      },
    },
    async (req, reply) => {
      const view = await dispatches.createDispatch(app.db, req.auth, dispatchInput(req.body));
      return reply.code(201).send(await one(req.auth.companyId, view));
    },
  );

  app.put(
    path,
    {
      config: write,
      preValidation: bodyHook,
      schema: {
        tags,
        summary:
          'Change the dispatch named by vendor_id: status, driver and vehicle, stops to add or remove, auto_complete_forms',
        body: UpdateBody(version),
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => {
      const view = await dispatches.updateDispatch(app.db, req.auth, req.body.vendor_id, dispatchInput(req.body));
      return one(req.auth.companyId, view);
    },
  );
}

export async function dispatchesRoutes(app: Api) {
  registerDispatches(app, 1);
}

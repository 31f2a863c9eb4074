/** /v1/groups and their members (scopes groups.read, groups.manage). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { sendCached } from '../../plumbing/cached.js';
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
import { validation } from '../../../core/errors.js';
import { IdParams } from '../../../wire/types.js';
import { UserSummary, userSummary } from '../../../wire/summaries.js';

import { UserList, usersWire } from './users.js';
import { VehicleList } from './vehicles.js';
import { actingUserId } from '../../../domain/users/acting.js';
import * as groups from '../../../domain/groups/service.js';
import { GroupBody, GroupMemberIds, IdsBody } from '../../../domain/groups/input.js';
import { listUsers } from '../../../domain/users/service.js';
import { listVehicles } from '../../../domain/vehicles/service.js';
import { userSummaryRows } from '../../../domain/users/summaries.js';
import type { Db } from '../../../storage/db.js';
import { vehiclesWire } from '../../../wire/pages.js';
import { Nullable } from '../../../core/schema.js';

const opt = Type.Optional;

export const Group = Type.Object({
  id: Type.Integer(),
  company_id: Type.Integer(),
  name: Type.String(),
  parent_id: Nullable(Type.Integer()),
  user: Nullable(UserSummary),
});

const Ids = GroupMemberIds;
const IdsQuery = Type.Object({ ids: opt(Ids) });
const OptionalIdsBody = Type.Union([Type.Object({ ids: opt(Ids) }), Type.Null()]);

const GroupList = listSchema('groups', 'group', Group);
const GroupOne = oneSchema('group', Group);
const tags = ['groups'];

async function groupsWire(db: Db, companyId: number, rows: groups.GroupRow[]) {
  const owners = await userSummaryRows(
    db,
    companyId,
    rows.map((g) => g.user_id),
  );
  return rows.map((g) => {
    const owner = g.user_id === null ? undefined : owners.get(g.user_id);
    return {
      id: g.id,
      company_id: g.company_id,
      name: g.name,
      parent_id: g.parent_id,
      user: owner ? userSummary(owner) : null,
    };
  });
}

/** The member sub-resources: which users a path lists. */
const USER_LISTS = [
  ['users', undefined, 'List the users of a group'],
  ['drivers', ['driver'], 'List the drivers of a group'],
  ['fleet_managers', ['admin', 'fleet_user'], 'List the fleet managers (admins and fleet users) of a group'],
] as const;

export async function groupsRoutes(app: Api) {
  const read = { scope: 'groups.read' } as const;
  const write = { scope: 'groups.manage' } as const;
  const one = async (companyId: number, row: groups.GroupRow) =>
    oneBody('group', (await groupsWire(app.db, companyId, [row]))[0]);

  app.get(
    '/v1/groups',
    {
      config: read,
      schema: {
        tags,
        summary: 'List groups',
        querystring: Type.Object(pageQuery),
        response: { 200: GroupList, ...errorResponses },
      },
    },
    (req, reply) =>
      sendCached(req, reply, async () => {
        const page = pageOf(req.query);
        const { rows, total } = await groups.listGroups(app.db, req.auth, page.per_page, page.offset);
        return listBody('groups', 'group', await groupsWire(app.db, req.auth.companyId, rows), page, total);
      }),
  );

  app.post(
    '/v1/groups',
    {
      config: write,
      schema: { tags, summary: 'Create a group', body: GroupBody, response: { 201: GroupOne, ...errorResponses } },
    },
    async (req, reply) => {
      const owner = await actingUserId(app.db, req.auth);
      const row = await groups.createGroup(app.db, req.auth, req.body, owner);
      return reply.code(201).send(await one(req.auth.companyId, row));
    },
  );

  app.get(
    '/v1/groups/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a group', params: IdParams, response: { 200: GroupOne, ...errorResponses } },
    },
    (req, reply) =>
      sendCached(req, reply, async () =>
        one(req.auth.companyId, await groups.getGroup(app.db, req.auth, req.params.id)),
      ),
  );

  app.put(
    '/v1/groups/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a group',
        params: IdParams,
        body: GroupBody,
        response: { 200: GroupOne, ...errorResponses },
      },
    },
    async (req) => one(req.auth.companyId, await groups.updateGroup(app.db, req.auth, req.params.id, req.body)),
  );

  app.delete(
    '/v1/groups/:id',
    {
      config: write,
      schema: { tags, summary: 'Delete a group', params: IdParams, response: { 200: Success, ...errorResponses } },
    },
    async (req) => {
      await groups.deleteGroup(app.db, req.auth, req.params.id);
      return { success: true };
    },
  );

  for (const [path, roles, summary] of USER_LISTS) {
    app.get(
      `/v1/groups/:id/${path}`,
      {
        config: read,
        schema: {
          tags,
          summary,
          params: IdParams,
          querystring: Type.Object(pageQuery),
          response: { 200: UserList, ...errorResponses },
        },
      },
      (req, reply) =>
        sendCached(req, reply, async () => {
          await groups.getGroup(app.db, req.auth, req.params.id);
          const page = pageOf(req.query);
          const filters = { group_id: req.params.id, roles: roles ? [...roles] : undefined };
          const { rows, total } = await listUsers(app.db, req.auth, filters, page.per_page, page.offset);
          return listBody('users', 'user', await usersWire(app.db, rows), page, total);
        }),
    );
  }

  app.get(
    '/v1/groups/:id/vehicles',
    {
      config: read,
      schema: {
        tags,
        summary: 'List the vehicles of a group',
        params: IdParams,
        querystring: Type.Object(pageQuery),
        response: { 200: VehicleList, ...errorResponses },
      },
    },
    (req, reply) =>
      sendCached(req, reply, async () => {
        await groups.getGroup(app.db, req.auth, req.params.id);
        const page = pageOf(req.query);
        const { rows, total } = await listVehicles(
          app.db,
          req.auth,
          { group_id: req.params.id },
          page.per_page,
          page.offset,
        );
        return listBody('vehicles', 'vehicle', await vehiclesWire(app.db, req.auth.companyId, rows), page, total);
      }),
  );

  for (const [path, table] of [
    ['users', 'group_users'],
    ['vehicles', 'group_vehicles'],
  ] as const) {
    app.post(
      `/v1/groups/:id/${path}`,
      {
        config: write,
        schema: {
          tags,
          summary: `Add ${path} to a group`,
          params: IdParams,
          body: IdsBody,
          response: { 200: Success, ...errorResponses },
        },
      },
      async (req) => {
        await groups.changeMembers(app.db, req.auth, req.params.id, table, req.body.ids, 'add');
        return { success: true };
      },
    );

    app.delete(
      `/v1/groups/:id/${path}`,
      {
        config: write,
        schema: {
          tags,
          summary: `Remove ${path} from a group (ids in the JSON body or the query string)`,
          params: IdParams,
          querystring: IdsQuery,
          body: OptionalIdsBody,
          response: { 200: Success, ...errorResponses },
        },
      },
      async (req) => {
        const ids = req.body?.ids ?? req.query.ids;
        if (!ids) throw validation('ids', 'is required');
        await groups.changeMembers(app.db, req.auth, req.params.id, table, ids, 'remove');
        return { success: true };
      },
    );
  }
}

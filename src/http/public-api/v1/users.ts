/** /v1/users: drivers and fleet managers (scopes users.read, users.manage). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { sendCached } from '../../plumbing/cached.js';
import type { Db } from '../../../storage/db.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
} from '../../plumbing/envelope.js';
import { IdParams } from '../../../wire/types.js';
import { User, userWire } from '../../../wire/user.js';
import * as users from '../../../domain/users/service.js';
import { UserBody } from '../../../domain/users/input.js';
import { DUTY_STATUSES, ROLES, USER_STATUSES } from '../../../domain/users/fields.js';

const S = (max = 255) => Type.String({ maxLength: max });
const Enum = (values: readonly string[]) => Type.String({ enum: [...values] });
const opt = Type.Optional;

const ListQuery = Type.Object({
  ...pageQuery,
  role: opt(Enum(ROLES)),
  status: opt(Enum(USER_STATUSES)),
  duty_status: opt(Enum(DUTY_STATUSES)),
  name: opt(S()),
  summary: opt(Type.String({ description: 'Accepted for compatibility; full records are always returned' })),
});

const LookupQuery = Type.Object({
  username: opt(S()),
  email: opt(S()),
  driver_company_id: opt(S()),
});

export const UserList = listSchema('users', 'user', User);
const UserOne = oneSchema('user', User);
const tags = ['users'];

/** A page of users on the wire, with their group ids loaded in one query. */
export async function usersWire(db: Db, rows: users.UserRow[]) {
  const groups = await users.groupIdsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => userWire(r, groups.get(r.id) ?? []));
}

async function oneWire(db: Db, row: users.UserRow) {
  return oneBody('user', (await usersWire(db, [row]))[0]);
}

export async function usersRoutes(app: Api) {
  const read = { scope: 'users.read' } as const;
  const write = { scope: 'users.manage' } as const;

  app.get(
    '/v1/users',
    {
      config: read,
      schema: { tags, summary: 'List users', querystring: ListQuery, response: { 200: UserList, ...errorResponses } },
    },
    (req, reply) =>
      sendCached(req, reply, async () => {
        const page = pageOf(req.query);
        const { rows, total } = await users.listUsers(app.db, req.auth, req.query, page.per_page, page.offset);
        return listBody('users', 'user', await usersWire(app.db, rows), page, total);
      }),
  );

  app.get(
    '/v1/users/lookup',
    {
      config: read,
      schema: {
        tags,
        summary: 'Find a user by username, email or driver_company_id',
        querystring: LookupQuery,
        response: { 200: UserOne, ...errorResponses },
      },
    },
    (req, reply) =>
      sendCached(req, reply, async () => oneWire(app.db, await users.lookupUser(app.db, req.auth, req.query))),
  );

  app.get(
    '/v1/users/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: UserOne, ...errorResponses } },
    },
    (req, reply) =>
      sendCached(req, reply, async () => oneWire(app.db, await users.getUser(app.db, req.auth, req.params.id))),
  );

  app.post(
    '/v1/users',
    {
      config: write,
      schema: { tags, summary: 'Create a user', body: UserBody, response: { 201: UserOne, ...errorResponses } },
    },
    async (req, reply) => {
      const row = await users.createUser(app.db, req.auth, req.body);
      return reply.code(201).send(await oneWire(app.db, row));
    },
  );

  app.put(
    '/v1/users/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a user',
        params: IdParams,
        body: UserBody,
        response: { 200: UserOne, ...errorResponses },
      },
    },
    async (req) => oneWire(app.db, await users.updateUser(app.db, req.auth, req.params.id, req.body)),
  );
}

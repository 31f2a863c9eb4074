/**
 * Groups in the console (who may change what: views/groups-access.ts):
 *   GET  /console/groups, POST /console/groups               the table; create a group
 *   GET  /console/groups/:id, POST /console/groups/:id       its page; rename it
 *   POST /console/groups/:id/vehicles|users                  add a vehicle or a user (`ids`)
 *   POST /console/groups/:id/vehicles|users/remove           take one out (`ids`)
 *   GET, POST /console/groups/:id/delete                     the confirmation step, then the deletion
 * Each form becomes the body of the API's route (`POST /v1/groups`, `PUT /v1/groups/:id`,
 * `POST|DELETE /v1/groups/:id/vehicles|users`), checked with its schema and messages, and goes through
 * the same groups service; the change is what the API reads next.
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { forbidden } from '../../core/errors.js';
import { changeMembers, createGroup, deleteGroup, updateGroup, type GroupInput } from '../../domain/groups/service.js';
import { getUser } from '../../domain/users/service.js';
import { GroupBody, IdsBody } from '../../domain/groups/input.js';
import { apiBodyCheck } from './body-check.js';
import { field } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, pathId, send } from './forms.js';
import { confirmPage } from './views/forms.js';
import { groupsPage } from './views/groups.js';
import { groupPage, type GroupPageView, type MemberKind } from './views/groups-page.js';
import { groupListRows, groupMembers, visibleGroup } from './data/groups-data.js';
import {
  GROUPS_DELETE_ADMIN,
  GROUPS_MANAGERS_ADMIN,
  GROUPS_READ_ONLY,
  mayDeleteGroups,
  mayEditGroups,
  mayMoveUser,
} from './views/groups-access.js';

const DONE: Record<string, string> = {
  created: 'The group was created.',
  renamed: 'The group was renamed.',
  added: 'Added to the group.',
  removed: 'Taken out of the group.',
};

export async function consoleGroupRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const createBody = apiBodyCheck<GroupInput>(GroupBody, 'POST', '/v1/groups');
  const updateBody = apiBodyCheck<GroupInput>(GroupBody, 'PUT', '/v1/groups/:id');
  const idsBody = apiBodyCheck<{ ids: number[] }>(IdsBody, 'POST', '/v1/groups/:id/users');
  const editor = (who: ConsoleCaller) => {
    if (!mayEditGroups(who.viewer)) throw forbidden(GROUPS_READ_ONLY);
  };

  async function showList(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    extra: { name?: string; error?: string; notice?: string } = {},
  ) {
    const rows = await groupListRows(app.db, who.viewer);
    const create = mayEditGroups(who.viewer) ? { name: extra.name ?? '', error: extra.error } : undefined;
    return send(
      reply,
      status,
      groupsPage({ user: who.user, csrf: who.csrf, rows, create, readOnly: GROUPS_READ_ONLY, notice: extra.notice }),
    );
  }

  async function showGroup(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    groupId: number,
    extra: Pick<GroupPageView, 'name' | 'renameError' | 'memberError' | 'notice'> = {},
  ) {
    const group = await visibleGroup(app.db, who.viewer, groupId);
    const edit = mayEditGroups(who.viewer);
    const page = groupPage({
      user: who.user,
      csrf: who.csrf,
      group,
      members: await groupMembers(app.db, who.viewer, group.id, edit),
      may: { edit, delete: mayDeleteGroups(who.viewer), moveUser: (role) => mayMoveUser(who.viewer, role) },
      readOnly: GROUPS_READ_ONLY,
      ...extra,
    });
    return send(reply, status, page);
  }

  const shown = (reply: FastifyReply, id: number, done: string) =>
    reply.redirect(`/console/groups/${id}?done=${done}`, 303);
  /** The ids field of a member form as the API's body: one id, as a number when it is one. */
  const idsOf = (body: unknown) => {
    const raw = field(body, 'ids') ?? '';
    return { ids: raw === '' ? [] : [/^\d{1,10}$/.test(raw) ? Number(raw) : raw] };
  };

  app.get('/console/groups', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return showList(reply, who, 200, {
      notice: field(req.query, 'done') === 'deleted' ? 'The group was deleted.' : undefined,
    });
  });

  app.post('/console/groups', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    editor(who);
    const name = field(req.body, 'name') ?? '';
    let id: number;
    try {
      id = (await createGroup(app.db, who.viewer, createBody({ name }), who.viewer.userId)).id;
    } catch (err) {
      const refused = formRefusal(err);
      return showList(reply, who, refused.status, { name, error: refused.message });
    }
    return shown(reply, id, 'created');
  });

  app.get<{ Params: { id: string } }>('/console/groups/:id', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return showGroup(reply, who, 200, pathId(req.params.id, 'group'), { notice: DONE[field(req.query, 'done') ?? ''] });
  });

  app.post<{ Params: { id: string } }>('/console/groups/:id', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    editor(who);
    const group = await visibleGroup(app.db, who.viewer, pathId(req.params.id, 'group'));
    const name = field(req.body, 'name') ?? '';
    try {
      await updateGroup(app.db, who.viewer, group.id, updateBody({ name }));
    } catch (err) {
      const refused = formRefusal(err);
      return showGroup(reply, who, refused.status, group.id, { name, renameError: refused.message });
    }
    return shown(reply, group.id, 'renamed');
  });

  for (const [kind, table] of [
    ['vehicles', 'group_vehicles'],
    ['users', 'group_users'],
  ] as const) {
    for (const op of ['add', 'remove'] as const) {
      const path = `/console/groups/:id/${kind}${op === 'remove' ? '/remove' : ''}`;
      app.post<{ Params: { id: string } }>(path, hide, async (req, reply) => {
        const who = await consoleFormCaller(app, req);
        editor(who);
        const group = await visibleGroup(app.db, who.viewer, pathId(req.params.id, 'group'));
        try {
          const { ids } = idsBody(idsOf(req.body));
          if (kind === 'users' && !mayMoveUser(who.viewer, (await getUser(app.db, who.viewer, ids[0])).role))
            throw forbidden(GROUPS_MANAGERS_ADMIN);
          await changeMembers(app.db, who.viewer, group.id, table, ids, op);
        } catch (err) {
          const refused = formRefusal(err);
          const memberError = { kind: kind as MemberKind, message: refused.message };
          return showGroup(reply, who, refused.status, group.id, { memberError });
        }
        return shown(reply, group.id, op === 'add' ? 'added' : 'removed');
      });
    }
  }

  const deletable = async (who: ConsoleCaller, raw: string) => {
    if (!mayDeleteGroups(who.viewer)) throw forbidden(GROUPS_DELETE_ADMIN);
    return visibleGroup(app.db, who.viewer, pathId(raw, 'group'));
  };

  app.get<{ Params: { id: string } }>('/console/groups/:id/delete', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const group = await deletable(who, req.params.id);
    const page = confirmPage({
      user: who.user,
      csrf: who.csrf,
      section: 'groups',
      title: `Delete ${group.name}?`,
      explanation:
        'The group is deleted. Its vehicles and users stay and leave the group; groups under it move to the top; a fleet manager limited to this group no longer sees its vehicles and drivers. It cannot be undone.',
      action: `/console/groups/${group.id}/delete`,
      button: `Delete ${group.name}`,
      cancelHref: `/console/groups/${group.id}`,
      danger: true,
    });
    return send(reply, 200, page);
  });

  app.post<{ Params: { id: string } }>('/console/groups/:id/delete', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const group = await deletable(who, req.params.id);
    await deleteGroup(app.db, who.viewer, group.id);
    return reply.redirect('/console/groups?done=deleted', 303);
  });
}

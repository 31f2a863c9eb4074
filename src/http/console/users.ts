/**
 * Managing drivers and users in the console (who may manage whom: views/users-access.ts):
 *   GET  /console/users                                  the table (?role=, ?status=, ?q=, ?page=)
 *   GET  /console/users/new, POST /console/users          add a user (?role= preselects one)
 *   GET  /console/users/:id, POST /console/users/:id      their page; save the details
 *   POST /console/users/:id/password                      set a password
 *   POST /console/users/:id/invite                        make an invite link, shown once
 *   GET, POST /console/users/:id/reset-password           the confirmation, then the reset and its link
 *   GET, POST /console/users/:id/deactivate|reactivate    the confirmation step, then the change
 * The one-time link's own page, /set-password, is password.ts.
 * A form becomes the body of `POST/PUT /v1/users`, is checked against that route's own schema with the
 * API's messages, and goes through the same service: the same refusals, the same `user_upserted`
 * webhook, and the change is what the API reads next. A driver's groups go through the groups service.
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { AppError, forbidden, validation } from '../../core/errors.js';
import { createUser, updateUser, type UserInput, type UserRow } from '../../domain/users/service.js';
import { ROLES, USER_STATUSES } from '../../domain/users/fields.js';
import { inviteUser, passwordLinkUrl, pendingLink, resetPassword } from '../../domain/users/password-links.js';
import { UserBody } from '../../domain/users/input.js';
import { apiBodyCheck } from './body-check.js';
import { field, fields } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, pathId, send } from './forms.js';
import { consolePasswordRoutes } from './password.js';
import { usersPage } from './views/users.js';
import { userPage, type UserPageView } from './views/users-page.js';
import { confirmPage } from './views/forms.js';
import { valuesOfForm, valuesOfUser, userBody, type UserValues } from './views/users-form.js';
import { assignableRoles, deactivateProblem, manageProblem, roleProblem } from './views/users-access.js';
import { groupsOfUser, setDriverGroups, userGroupsToStore, userListPage, visibleUser } from './data/users-data.js';
import { assignableGroups } from './data/vehicles-data.js';
import type { MadeLink } from '../../domain/users/password-links.js';

const nameOf = (u: UserRow) => `${u.first_name} ${u.last_name}`;

/** What a user's page says after a change; only these words, never text from the URL. */
const DONE: Record<string, (name: string) => string> = {
  created: (n) => `${n} was added.`,
  updated: (n) => `Changes to ${n} were saved.`,
  password: (n) => `The password of ${n} is set.`,
  deactivated: (n) => `${n} is deactivated: they can no longer sign in.`,
  reactivated: (n) => `${n} is active again.`,
};

const STATUS_CHANGES = {
  deactivate: {
    status: 'deactivated',
    done: 'deactivated',
    title: (n: string) => `Deactivate ${n}?`,
    explanation:
      'A deactivated user can no longer sign in, and the API shows them with status "deactivated". Their logs, dispatches and history stay. You can reactivate them later.',
    danger: true,
  },
  reactivate: {
    status: 'active',
    done: 'reactivated',
    title: (n: string) => `Reactivate ${n}?`,
    explanation: 'The user becomes active again and can sign in with their password, if they have one.',
    danger: false,
  },
} as const;

/** The driver's group ids from the form (the API's body carries group ids only for fleet managers). */
function groupIdsOf(ids: Array<number | string>): number[] {
  const bad = ids.findIndex((g) => typeof g !== 'number');
  if (bad >= 0) throw validation(`group_ids[${bad}]`, 'must be integer');
  return ids as number[];
}

export async function consoleUserRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const createBody = apiBodyCheck<UserInput>(UserBody, 'POST', '/v1/users');
  const updateBody = apiBodyCheck<UserInput>(UserBody, 'PUT', '/v1/users/:id');
  await consolePasswordRoutes(app);

  /** A user the caller may change (404 when they may not see them, 403 when they may not change them). */
  async function manageable(who: ConsoleCaller, raw: string): Promise<UserRow> {
    const row = await visibleUser(app.db, who.viewer, pathId(raw, 'user'));
    const problem = manageProblem(who.viewer, row);
    if (problem) throw forbidden(problem);
    return row;
  }

  async function showPage(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    v: Partial<Omit<UserPageView, 'user' | 'csrf' | 'roles' | 'groups' | 'groupsRequired' | 'selfId'>>,
  ) {
    const row = v.row;
    const values: UserValues =
      v.values ??
      (row
        ? valuesOfUser(row, await groupsOfUser(app.db, row.id))
        : { fields: { role: who.viewer.role === 'admin' ? '' : 'driver' }, groupIds: [] });
    const page = userPage({
      user: who.user,
      csrf: who.csrf,
      roles: assignableRoles(who.viewer),
      groups: await assignableGroups(app.db, who.viewer),
      groupsRequired: who.viewer.vehicleIds !== null,
      selfId: who.viewer.userId,
      readOnly: row ? (manageProblem(who.viewer, row) ?? undefined) : undefined,
      pending: row ? await pendingLink(app.db, who.viewer, row.id) : null,
      ...v,
      values,
    });
    return send(reply, status, page);
  }

  const shown = (reply: FastifyReply, id: number, done: string) =>
    reply.redirect(`/console/users/${id}?done=${done}`, 303);
  const actor = (who: ConsoleCaller) => ({ ...who.viewer, actingUserId: who.viewer.userId });
  const linkOf = (l: MadeLink) => ({
    url: passwordLinkUrl(app.config.publicUrl, l.token),
    purpose: l.purpose,
    expires_at: l.expires_at,
  });

  app.get('/console/users', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const pick = (name: string, allowed: readonly string[]) => {
      const v = field(req.query, name);
      return v && allowed.includes(v) ? v : undefined;
    };
    const q = (field(req.query, 'q') ?? '').trim().slice(0, 255) || undefined;
    const query = { role: pick('role', ROLES), status: pick('status', USER_STATUSES), q };
    const p = field(req.query, 'page') ?? '';
    const page = /^[1-9]\d{0,5}$/.test(p) ? Number(p) : 1;
    const { rows, total } = await userListPage(app.db, who.viewer, query, page);
    const roleFilter = who.viewer.driverIds === null;
    return send(reply, 200, usersPage({ user: who.user, csrf: who.csrf, rows, total, page, query, roleFilter }));
  });

  app.get('/console/users/new', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const role = field(req.query, 'role');
    const preset = role && (assignableRoles(who.viewer) as readonly string[]).includes(role) ? role : undefined;
    return showPage(reply, who, 200, preset ? { values: { fields: { role: preset }, groupIds: [] } } : {});
  });

  app.post('/console/users', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const values = valuesOfForm(req.body, field, fields(req.body, 'group_ids'));
    const access = field(req.body, 'access') ?? 'invite';
    let row: UserRow;
    let link: MadeLink | undefined;
    try {
      const { body, groupIds } = userBody(values);
      const refused = roleProblem(who.viewer, null, values.fields.role ?? '');
      if (refused) throw forbidden(refused);
      if (access === 'password') body.password = field(req.body, 'password') ?? '';
      const input = createBody(body);
      const driverGroups =
        input.role === 'driver' ? await userGroupsToStore(app.db, who.viewer, groupIdsOf(groupIds)) : null;
      row = await createUser(app.db, who.viewer, input);
      if (driverGroups) await setDriverGroups(app.db, who.viewer, row.id, driverGroups);
      if (access === 'invite') link = await inviteUser(app.db, actor(who), row.id);
    } catch (err) {
      const refused = formRefusal(err);
      return showPage(reply, who, refused.status, { values, error: refused.message, access });
    }
    if (!link) return shown(reply, row.id, 'created');
    return showPage(reply, who, 201, { row, notice: DONE.created(nameOf(row)), link: linkOf(link) });
  });

  app.get<{ Params: { id: string } }>('/console/users/:id', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const row = await visibleUser(app.db, who.viewer, pathId(req.params.id, 'user'));
    const done = DONE[field(req.query, 'done') ?? ''];
    return showPage(reply, who, 200, { row, notice: done?.(nameOf(row)) });
  });

  app.post<{ Params: { id: string } }>('/console/users/:id', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const row = await manageable(who, req.params.id);
    const values = valuesOfForm(req.body, field, fields(req.body, 'group_ids'));
    try {
      const { body, groupIds } = userBody(values);
      const refused = roleProblem(who.viewer, row, values.fields.role ?? '');
      if (refused) throw forbidden(refused);
      const input = updateBody(body);
      const role = input.role ?? row.role;
      const driverGroups =
        role === 'driver' ? await userGroupsToStore(app.db, who.viewer, groupIdsOf(groupIds), row.id) : null;
      await updateUser(app.db, who.viewer, row.id, input);
      if (driverGroups) await setDriverGroups(app.db, who.viewer, row.id, driverGroups);
    } catch (err) {
      const refused = formRefusal(err);
      return showPage(reply, who, refused.status, { row, values, error: refused.message });
    }
    return shown(reply, row.id, 'updated');
  });

  app.post<{ Params: { id: string } }>('/console/users/:id/password', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const row = await manageable(who, req.params.id);
    try {
      await updateUser(app.db, who.viewer, row.id, updateBody({ password: field(req.body, 'password') ?? '' }));
    } catch (err) {
      const refused = formRefusal(err);
      return showPage(reply, who, refused.status, { row, passwordError: refused.message });
    }
    return shown(reply, row.id, 'password');
  });

  app.post<{ Params: { id: string } }>('/console/users/:id/invite', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const row = await manageable(who, req.params.id);
    let link: MadeLink;
    try {
      link = await inviteUser(app.db, actor(who), row.id);
    } catch (err) {
      const refused = formRefusal(err);
      return showPage(reply, who, refused.status, { row, passwordError: refused.message });
    }
    return showPage(reply, who, 201, { row, link: linkOf(link) });
  });

  app.get<{ Params: { id: string } }>('/console/users/:id/reset-password', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const row = await manageable(who, req.params.id);
    const name = nameOf(row);
    const page = confirmPage({
      user: who.user,
      csrf: who.csrf,
      section: 'users',
      title: `Reset the password of ${name}?`,
      explanation: `The password ${row.first_name} has now stops working at once and their signed-in sessions end. You get a one-time link, shown once, with which they choose a new password.`,
      action: `/console/users/${row.id}/reset-password`,
      button: 'Reset password',
      cancelHref: `/console/users/${row.id}`,
      danger: true,
    });
    return send(reply, 200, page);
  });

  app.post<{ Params: { id: string } }>('/console/users/:id/reset-password', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const row = await manageable(who, req.params.id);
    let link: MadeLink;
    try {
      link = await resetPassword(app.db, actor(who), row.id);
    } catch (err) {
      const refused = formRefusal(err);
      return showPage(reply, who, refused.status, { row, passwordError: refused.message });
    }
    const after = { ...row, password_hash: null };
    return showPage(reply, who, 201, { row: after, link: linkOf(link) });
  });

  for (const [verb, change] of Object.entries(STATUS_CHANGES)) {
    const path = `/console/users/:id/${verb}`;
    const allowed = (who: ConsoleCaller, row: UserRow) => {
      const problem = change.status === 'deactivated' ? deactivateProblem(who.viewer, row) : null;
      if (problem) throw new AppError('forbidden', problem);
    };
    app.get<{ Params: { id: string } }>(path, hide, async (req, reply) => {
      const who = await signedIn(req, reply);
      if (!who) return reply;
      const row = await manageable(who, req.params.id);
      allowed(who, row);
      if (row.status === change.status) return shown(reply, row.id, change.done);
      const name = nameOf(row);
      const page = confirmPage({
        user: who.user,
        csrf: who.csrf,
        section: 'users',
        title: change.title(name),
        explanation: change.explanation,
        action: `/console/users/${row.id}/${verb}`,
        button: `${verb[0].toUpperCase()}${verb.slice(1)} ${name}`,
        cancelHref: `/console/users/${row.id}`,
        danger: change.danger,
      });
      return send(reply, 200, page);
    });

    app.post<{ Params: { id: string } }>(path, hide, async (req, reply) => {
      const who = await consoleFormCaller(app, req);
      const row = await manageable(who, req.params.id);
      allowed(who, row);
      await updateUser(app.db, who.viewer, row.id, updateBody({ status: change.status }));
      return shown(reply, row.id, change.done);
    });
  }
}

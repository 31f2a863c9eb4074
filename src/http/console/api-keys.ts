/**
 * API keys in the console, for company admins only (a key acts as the company's admin with every
 * scope, so a fleet manager gets 403):
 *   GET  /console/api-keys                   the company's keys and the create form
 *   POST /console/api-keys                   creates a key and shows it, once
 *   GET, POST /console/api-keys/:id/revoke   the confirmation step, then the revocation
 * Through src/auth/api-keys.ts, as `fleet api-key` does; a key of another company is not found.
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { notFound } from '../../core/errors.js';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey } from '../../auth/api-keys.js';
import { API_KEY_NAME_MAX, apiKeysPage, type ApiKeysView } from './views/api-keys.js';
import { confirmPage, deniedPage } from './views/forms.js';
import { field } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, pathId, send } from './forms.js';

/** Keys listed on the page; the CLI (`fleet api-key list`) pages through more. */
const KEYS_SHOWN = 500;
const DENIED =
  "Only company admins manage API keys: a key acts as the company's admin with every scope. Ask an admin of your company for a key.";

export async function consoleApiKeyRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const isAdmin = (who: ConsoleCaller) => who.user.role === 'admin';
  const denied = (reply: FastifyReply, who: ConsoleCaller) =>
    send(
      reply,
      403,
      deniedPage({ user: who.user, csrf: who.csrf, section: 'api-keys', title: 'API keys', message: DENIED }),
    );

  async function showKeys(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    extra: Pick<ApiKeysView, 'created' | 'name' | 'error' | 'notice'> = {},
  ) {
    const { rows, total } = await listApiKeys(app.db, who.viewer.companyId, { revoked: true }, KEYS_SHOWN, 0);
    return send(reply, status, apiKeysPage({ user: who.user, csrf: who.csrf, keys: rows, total, ...extra }));
  }

  /** A key of the caller's company; another company's is "not found", as one that does not exist. */
  async function companyKey(who: ConsoleCaller, raw: string) {
    const id = pathId(raw, 'API key');
    const key = await getApiKey(app.db, id);
    if (key.company_id !== who.viewer.companyId) throw notFound(`API key ${id}`);
    return key;
  }

  app.get('/console/api-keys', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    if (!isAdmin(who)) return denied(reply, who);
    const raw = field(req.query, 'revoked');
    const revoked = raw && /^\d{1,10}$/.test(raw) ? await companyKey(who, raw).catch(() => null) : null;
    const notice = revoked?.revoked_at
      ? `Revoked “${revoked.name}” (${revoked.key_prefix}…): requests with it are refused.`
      : undefined;
    return showKeys(reply, who, 200, { notice });
  });

  app.post('/console/api-keys', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    if (!isAdmin(who)) return denied(reply, who);
    const typed = field(req.body, 'name') ?? '';
    const name = typed.trim();
    if (name === '') return showKeys(reply, who, 400, { name: typed, error: 'name must not be empty' });
    if (name.length > API_KEY_NAME_MAX)
      return showKeys(reply, who, 400, {
        name: typed,
        error: `name must be at most ${API_KEY_NAME_MAX} characters long`,
      });
    const key = await createApiKey(app.db, who.viewer.companyId, name);
    return showKeys(reply, who, 201, { created: { name: key.name, key: key.api_key } });
  });

  app.get<{ Params: { id: string } }>('/console/api-keys/:id/revoke', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    if (!isAdmin(who)) return denied(reply, who);
    const key = await companyKey(who, req.params.id);
    if (key.revoked_at) return reply.redirect('/console/api-keys', 303);
    const page = confirmPage({
      user: who.user,
      csrf: who.csrf,
      section: 'api-keys',
      title: `Revoke “${key.name}”?`,
      explanation: `Every request with the key ${key.key_prefix}… is refused (401) from then on. A revoked key cannot be restored; an integration that still needs access needs a new key.`,
      action: `/console/api-keys/${key.id}/revoke`,
      button: 'Revoke key',
      cancelHref: '/console/api-keys',
      danger: true,
    });
    return send(reply, 200, page);
  });

  app.post<{ Params: { id: string } }>('/console/api-keys/:id/revoke', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    if (!isAdmin(who)) return denied(reply, who);
    const key = await companyKey(who, req.params.id);
    // Revoking a revoked key is no error: it is revoked either way (as `fleet api-key revoke`).
    await revokeApiKey(app.db, key.id);
    return reply.redirect(`/console/api-keys?revoked=${key.id}`, 303);
  });
}

/**
 * `fleet app …`: register OAuth applications, list and show them, and manage the apps installed for a company.
 *   app create --name N --redirect-uri URI [--redirect-uri URI2 …] --scopes "s1 s2" [--grant-types "…"]
 *   app list, app show --client-id ID
 *   app rotate-secret --client-id ID
 *   app installed --company ID
 *   app revoke-install --company ID --client-id ID
 * A revocation made here reaches running servers within OAUTH_TOKEN_CACHE_MS (1 s by default).
 */
import type { Db } from '../storage/db.js';
import { notFound } from '../core/errors.js';
import {
  companyRef,
  findCompany,
  optionalFlag,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  requireFlag,
  UsageError,
  type Command,
  type Flags,
} from './io.js';
import { printListing, printRecord } from './format.js';
import { wireTime } from '../storage/values.js';
import type { OAuthApp } from '../auth/oauth/apps.js';

const apps = () => import('../auth/oauth/apps.js');

/** The app of `--client-id`, or not found. */
async function appOf(db: Db, clientId: string): Promise<OAuthApp> {
  const app = await (await apps()).findApp(db, clientId);
  if (!app) throw notFound(`app with client_id ${clientId}`);
  return app;
}

/** An app as listed and shown: never its client secret (only its digest is stored). */
const appJson = (a: OAuthApp) => ({ ...a, created_at: wireTime(a.created_at), updated_at: wireTime(a.updated_at) });

function many(flags: Flags, name: string): string[] {
  const v = (flags as Record<string, unknown>)[name];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
}

const words = (s: string | undefined) => (s ?? '').split(/[\s,]+/).filter(Boolean);

export const appCreate: Command = {
  usage:
    'app create --name NAME --redirect-uri URI [--redirect-uri URI2] --scopes "S1 S2" [--grant-types "authorization_code refresh_token"]',
  summary: 'Register an OAuth application; its client secret is printed once and stored hashed.',
  flags: {
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    scopes: { type: 'string' },
    'grant-types': { type: 'string' },
  },
  async run(flags, ctx) {
    const name = requireFlag(flags, 'name');
    const redirectUris = many(flags, 'redirect-uri');
    if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required (repeat it for several)');
    const scopes = words(requireFlag(flags, 'scopes'));
    const grantTypes = optionalFlag(flags, 'grant-types');
    const { db } = await ctx.database();
    const { registerApp } = await apps();
    const app = await registerApp(
      db,
      { name, redirectUris, scopes, grantTypes: grantTypes ? words(grantTypes) : undefined },
      new Date().toISOString(),
    );
    ctx.print(
      {
        id: app.id,
        client_id: app.client_id,
        client_secret: app.client_secret,
        name: app.name,
        redirect_uris: app.redirect_uris,
        scopes: app.scopes,
      },
      [
        `Registered app ${app.id} "${app.name}"`,
        `client_id:     ${app.client_id}`,
        `client_secret: ${app.client_secret}   (shown only this once)`,
        `redirect URIs: ${app.redirect_uris.join(', ')}`,
        `scopes:        ${app.scopes.join(' ')}`,
      ].join('\n'),
    );
    return 0;
  },
};

export const appRotateSecret: Command = {
  usage: 'app rotate-secret --client-id ID',
  summary: 'Issue a new client secret for an app (printed once); the old one stops working at once.',
  flags: { 'client-id': { type: 'string' } },
  async run(flags, ctx) {
    const clientId = requireFlag(flags, 'client-id');
    const { db } = await ctx.database();
    const app = await appOf(db, clientId);
    const secret = await (await apps()).rotateSecret(db, app.id, new Date().toISOString());
    ctx.print(
      { id: app.id, client_id: app.client_id, client_secret: secret },
      `New client secret for "${app.name}" (shown only this once):\n${secret}`,
    );
    return 0;
  },
};

export const appInstalled: Command = {
  usage: 'app installed --company ID',
  summary: 'List the apps installed for a company (its active OAuth grants) with their scopes.',
  flags: { company: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const { installedApps } = await import('../auth/oauth/grants.js');
    const installed = await installedApps(db, company.id);
    ctx.print(
      {
        company_id: company.id,
        installed_apps: installed.map((a) => ({
          client_id: a.client_id,
          name: a.name,
          scopes: a.scopes,
          installed_at: a.installed_at,
          consented_by: a.consented_by,
        })),
      },
      installed.length
        ? installed
            .map((a) => `${a.client_id}  ${a.name}  [${a.scopes.join(' ')}]  installed ${a.installed_at}`)
            .join('\n')
        : `No app is installed for company ${company.id}.`,
    );
    return 0;
  },
};

export const appRevokeInstall: Command = {
  usage: 'app revoke-install --company ID --client-id ID',
  summary: 'Remove an app from a company: its grant and every token it holds are revoked.',
  flags: { company: { type: 'string' }, 'client-id': { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const clientId = requireFlag(flags, 'client-id');
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const [{ installedApps, revokeGrant }, { createRuntime }] = await Promise.all([
      import('../auth/oauth/grants.js'),
      import('../auth/oauth/runtime.js'),
    ]);
    const installed = (await installedApps(db, company.id)).find((a) => a.client_id === clientId);
    if (!installed) throw notFound(`installed app ${clientId} in company ${company.id}`);
    await revokeGrant(db, createRuntime(ctx.config), installed.grant_id, company.id);
    ctx.print(
      { company_id: company.id, client_id: clientId, revoked: true },
      `Removed "${installed.name}" from company ${company.id}; its tokens are revoked.`,
    );
    return 0;
  },
};

export const appList: Command = {
  usage: `app list ${PAGE_USAGE}`,
  summary: 'List the registered OAuth applications (by operators and by developers of the portal).',
  details: [
    PAGE_DETAILS,
    'With --json: {"apps": [{"id", "client_id", "name", "redirect_uris", "scopes", "grant_types", "developer_id", …}], "total": N}.',
  ],
  flags: PAGE_FLAGS,
  async run(flags, ctx) {
    const page = pageOf(flags);
    const { db } = await ctx.database();
    const { rows, total } = await (await apps()).listApps(db, page.limit, page.offset);
    printListing(ctx, {
      name: 'apps',
      rows,
      total,
      page,
      json: appJson,
      none: 'No app is registered.',
      header: ['ID', 'CLIENT ID', 'NAME', 'SCOPES', 'DEVELOPER', 'CREATED'],
      cells: (a) => [a.id, a.client_id, a.name, a.scopes.join(' '), a.developer_id, wireTime(a.created_at)],
    });
    return 0;
  },
};

export const appShow: Command = {
  usage: 'app show --client-id ID',
  summary: 'Show one registered app: redirect URIs, scopes, grant types (never its secret).',
  flags: { 'client-id': { type: 'string' } },
  async run(flags, ctx) {
    const clientId = requireFlag(flags, 'client-id');
    const { db } = await ctx.database();
    printRecord(ctx, appJson(await appOf(db, clientId)));
    return 0;
  },
};

export const APP_COMMANDS: Record<string, Command> = {
  'app create': appCreate,
  'app list': appList,
  'app show': appShow,
  'app rotate-secret': appRotateSecret,
  'app installed': appInstalled,
  'app revoke-install': appRevokeInstall,
};

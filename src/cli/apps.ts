/**
 * `fleet app …`: register OAuth applications and manage the apps installed for a company.
 *   app create --name N --redirect-uri URI [--redirect-uri URI2 …] --scopes "s1 s2" [--grant-types "…"]
 *   app rotate-secret --client-id ID
 *   app installed --company ID
 *   app revoke-install --company ID --client-id ID
 * A revocation made here reaches running servers within OAUTH_TOKEN_CACHE_MS (1 s by default).
 */
import { findApp, registerApp, rotateSecret } from '../auth/oauth/apps.js';
import { installedApps, revokeGrant } from '../auth/oauth/grants.js';
import { createRuntime } from '../auth/oauth/runtime.js';
import { notFound } from '../http/plumbing/errors.js';
import { companyRef, findCompany, optionalFlag, requireFlag, UsageError, type Command, type Flags } from './io.js';

function many(flags: Flags, name: string): string[] {
  const v = (flags as Record<string, unknown>)[name];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
}

const words = (s: string | undefined) => (s ?? '').split(/[\s,]+/).filter(Boolean);

export const appCreate: Command = {
  usage: 'app create --name NAME --redirect-uri URI [--redirect-uri URI2] --scopes "S1 S2" [--grant-types "authorization_code refresh_token"]',
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
    const app = await registerApp(db, { name, redirectUris, scopes, grantTypes: grantTypes ? words(grantTypes) : undefined }, new Date().toISOString());
    ctx.print(
      { id: app.id, client_id: app.client_id, client_secret: app.client_secret, name: app.name, redirect_uris: app.redirect_uris, scopes: app.scopes },
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
    const app = await findApp(db, clientId);
    if (!app) throw notFound(`app with client_id ${clientId}`);
    const secret = await rotateSecret(db, app.id, new Date().toISOString());
    ctx.print({ id: app.id, client_id: app.client_id, client_secret: secret }, `New client secret for "${app.name}" (shown only this once):\n${secret}`);
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
    const apps = await installedApps(db, company.id);
    ctx.print(
      { company_id: company.id, installed_apps: apps.map((a) => ({ client_id: a.client_id, name: a.name, scopes: a.scopes, installed_at: a.installed_at, consented_by: a.consented_by })) },
      apps.length
        ? apps.map((a) => `${a.client_id}  ${a.name}  [${a.scopes.join(' ')}]  installed ${a.installed_at}`).join('\n')
        : `No app is installed for company ${company.id}.`,
    );
    return 0;
  },
};

export const appRevokeInstall: Command = {
  usage: 'app revoke-install --company ID --client-id ID',
  summary: "Remove an app from a company: its grant and every token it holds are revoked.",
  flags: { company: { type: 'string' }, 'client-id': { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const clientId = requireFlag(flags, 'client-id');
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const installed = (await installedApps(db, company.id)).find((a) => a.client_id === clientId);
    if (!installed) throw notFound(`installed app ${clientId} in company ${company.id}`);
    await revokeGrant(db, createRuntime(ctx.config), installed.grant_id, company.id);
    ctx.print({ company_id: company.id, client_id: clientId, revoked: true }, `Removed "${installed.name}" from company ${company.id}; its tokens are revoked.`);
    return 0;
  },
};

export const APP_COMMANDS: Record<string, Command> = {
  'app create': appCreate,
  'app rotate-secret': appRotateSecret,
  'app installed': appInstalled,
  'app revoke-install': appRevokeInstall,
};

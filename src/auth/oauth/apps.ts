/**
 * Registered applications (OAuth clients). The client id is public; the client secret is shown once,
 * at registration or rotation, and stored as its SHA-256 digest. A secret is 256 random bits, so a
 * digest cannot be reversed by guessing, and checking it costs microseconds where scrypt would cost
 * tens of milliseconds of CPU on every token request (an easy denial of service, docs/oauth.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { OAuthAppsTable } from './tables.js';
import { fromJson, json } from '../../storage/values.js';
import { countOf } from '../../storage/query.js';
import { AppError, notFound } from '../../core/errors.js';
import { isScope } from '../scopes.js';
import { digest, newSecret } from '../secrets.js';

export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export const MAX_REDIRECT_URIS = 10;

export interface AppInput {
  name: string;
  redirectUris: string[];
  scopes: string[];
  /** Defaults to both grant types. */
  grantTypes?: string[];
  developerId?: number | null;
}

export interface OAuthApp {
  id: number;
  client_id: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  grant_types: GrantType[];
  developer_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface RegisteredApp {
  id: number;
  client_id: string;
  client_secret: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  grant_types: GrantType[];
}

const invalid = (message: string) => new AppError('validation_failed', message);

/** Why a redirect URI cannot be registered, or null: absolute http(s), no fragment, no wildcard. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must use https (or http)';
  if (uri.includes('#')) return 'must not contain a fragment (#)';
  if (uri.includes('*')) return 'must not contain a wildcard; every redirect URI is matched exactly';
  if (/\s/.test(uri)) return 'must not contain spaces';
  return null;
}

export function validateAppInput(input: AppInput): Required<Omit<AppInput, 'developerId'>> {
  const name = input.name?.trim() ?? '';
  if (!name) throw invalid('name is required');
  if (name.length > 100) throw invalid('name must be at most 100 characters long');
  const redirectUris = [...new Set(input.redirectUris.map((u) => u.trim()).filter(Boolean))];
  if (redirectUris.length === 0) throw invalid('at least one redirect URI is required');
  if (redirectUris.length > MAX_REDIRECT_URIS) throw invalid(`at most ${MAX_REDIRECT_URIS} redirect URIs are allowed`);
  for (const u of redirectUris) {
    const problem = redirectUriProblem(u);
    if (problem) throw invalid(`redirect URI "${u}" ${problem}`);
  }
  const scopes = [...new Set(input.scopes.map((s) => s.trim()).filter(Boolean))];
  if (scopes.length === 0) throw invalid('at least one scope is required');
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length)
    throw invalid(`unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (docs/scopes.md lists them)`);
  const grantTypes = [...new Set(input.grantTypes ?? GRANT_TYPES)];
  if (grantTypes.length === 0) throw invalid('at least one grant type is required');
  for (const g of grantTypes) {
    if (!(GRANT_TYPES as readonly string[]).includes(g))
      throw invalid(`grant type must be one of: ${GRANT_TYPES.join(', ')}; got "${g}"`);
  }
  return { name, redirectUris, scopes, grantTypes };
}

type AppRow = Selectable<OAuthAppsTable>;

function toApp(r: AppRow): OAuthApp {
  return {
    id: r.id,
    client_id: r.client_id,
    name: r.name,
    redirect_uris: fromJson<string[]>(r.redirect_uris, []),
    scopes: fromJson<string[]>(r.scopes, []),
    grant_types: fromJson<GrantType[]>(r.grant_types, []),
    developer_id: r.developer_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export async function registerApp(db: Db, input: AppInput, nowIso: string): Promise<RegisteredApp> {
  const v = validateAppInput(input);
  // Never starting with "-": one in 64 would, and `fleet app … --client-id -x…` reads that as an option.
  let clientId = randomBytes(24).toString('base64url');
  while (clientId.startsWith('-')) clientId = randomBytes(24).toString('base64url');
  const secret = newSecret('fs');
  const row = await db.kysely
    .insertInto('oauth_apps')
    .values({
      client_id: clientId,
      client_secret_hash: digest(secret),
      name: v.name,
      redirect_uris: json(v.redirectUris),
      scopes: json(v.scopes),
      grant_types: json(v.grantTypes),
      developer_id: input.developerId ?? null,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    client_id: clientId,
    client_secret: secret,
    name: v.name,
    redirect_uris: v.redirectUris,
    scopes: v.scopes,
    grant_types: v.grantTypes as GrantType[],
  };
}

/** Issues a new client secret; the old one stops working at once. */
export async function rotateSecret(db: Db, appId: number, nowIso: string): Promise<string> {
  const secret = newSecret('fs');
  const res = await db.kysely
    .updateTable('oauth_apps')
    .set({ client_secret_hash: digest(secret), updated_at: nowIso })
    .where('id', '=', appId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound(`app ${appId}`);
  return secret;
}

export async function findApp(db: Db, clientId: string): Promise<OAuthApp | null> {
  if (clientId === '' || clientId.length > 200) return null;
  const row = await db.kysely.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  return row ? toApp(row) : null;
}

export async function findAppById(db: Db, id: number): Promise<OAuthApp | null> {
  const row = await db.kysely.selectFrom('oauth_apps').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toApp(row) : null;
}

/** Every registered app, in id order, a page at a time (`fleet app list`). */
export async function listApps(db: Db, limit: number, offset: number): Promise<{ rows: OAuthApp[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.kysely.selectFrom('oauth_apps').selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(db.kysely.selectFrom('oauth_apps').select('id')),
  ]);
  return { rows: rows.map(toApp), total };
}

export async function appsOfDeveloper(db: Db, developerId: number): Promise<OAuthApp[]> {
  const rows = await db.kysely
    .selectFrom('oauth_apps')
    .selectAll()
    .where('developer_id', '=', developerId)
    .orderBy('id')
    .execute();
  return rows.map(toApp);
}

const DUMMY_HASH = digest('fs_no-such-client');

/**
 * The app when `secret` is its client secret, else null. The comparison is constant-time, and an
 * unknown client id costs the same comparison as a known one.
 */
export async function authenticateClient(db: Db, clientId: string, secret: string): Promise<OAuthApp | null> {
  const row =
    clientId && clientId.length <= 200
      ? await db.kysely.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst()
      : undefined;
  const expected = Buffer.from(row?.client_secret_hash ?? DUMMY_HASH, 'hex');
  const given = Buffer.from(digest(secret), 'hex');
  const same = expected.length === given.length && timingSafeEqual(expected, given);
  return row && same ? toApp(row) : null;
}

/**
 * The OAuth tests' fixtures, on the app of test/helper.ts (the one way a test builds an app): its clock
 * moved by the test, a company with an admin, a manager and a driver, a registered client, a tiny browser
 * (a cookie jar over inject) and the steps of the authorization-code flow.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createUser } from '../../../src/domain/users/service.js';
import { registerApp, type AppInput, type RegisteredApp } from '../../../src/auth/oauth/apps.js';
import { makeApp, TestClock, useOnce, type Dialect, type TestApp, type TestCompany } from '../../helper.js';

export { TestClock };

export const PASSWORD = 'correct horse battery';
export const REDIRECT = 'https://client.example/callback';

let seq = 0;
export const uniq = () => `${process.pid.toString(36)}${(++seq).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface Fleet {
  companyId: number;
  apiKey: string;
  admin: { id: number; email: string };
  manager: { id: number; email: string };
  driver: { id: number; email: string };
}

/** The app of test/helper.ts with its clock moved by the test, a fleet of three people and a registered client. */
export interface OAuthTestApp extends TestApp {
  clock: TestClock;
  /** The first fleet: the company of `company`, with an admin, a manager and a driver. */
  fleet: Fleet;
  client: RegisteredApp;
  newFleet(name?: string): Promise<Fleet>;
  newClient(input?: Partial<AppInput>): Promise<RegisteredApp>;
}

export async function makeOAuthApp(dialect: Dialect, env: Record<string, string> = {}): Promise<OAuthTestApp> {
  const clock = new TestClock();
  const t = await makeApp(dialect, env, { clock: clock.fn });
  const staff = async (company: TestCompany): Promise<Fleet> => {
    const person = async (role: string) => {
      const email = `${role}.${uniq()}@fleet.test`;
      const u = await createUser(
        t.db,
        { companyId: company.id },
        { role, email, password: PASSWORD, first_name: 'Pat', last_name: role },
      );
      return { id: u.id, email };
    };
    return {
      companyId: company.id,
      apiKey: company.apiKey,
      admin: await person('admin'),
      manager: await person('fleet_user'),
      driver: await person('driver'),
    };
  };
  const newClient = (input: Partial<AppInput> = {}) =>
    registerApp(
      t.db,
      {
        name: 'Route Planner',
        redirectUris: [REDIRECT],
        scopes: ['vehicles.read', 'vehicles.manage', 'users.read', 'companies.read'],
        ...input,
      },
      new Date(clock.now).toISOString(),
    );
  const fleet = await staff(t.company);
  const client = await newClient();
  return { ...t, clock, fleet, client, newFleet: async (name) => staff(await t.newCompany(name)), newClient };
}

/** makeOAuthApp for a describe block: built on first use, closed after the block. */
export function useOAuthApp(dialect: Dialect, env: Record<string, string> = {}): () => Promise<OAuthTestApp> {
  return useOnce(() => makeOAuthApp(dialect, env));
}

export interface Res {
  status: number;
  headers: Record<string, any>;
  body: string;
  json: any;
  cookies: Array<{
    name: string;
    value: string;
    httpOnly?: boolean;
    sameSite?: string;
    secure?: boolean;
    path?: string;
    maxAge?: number;
  }>;
}

/** A browser in miniature: keeps cookies between requests, as a user agent would. */
export class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(opts: InjectOptions): Promise<Res> {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      remoteAddress: this.ip,
      ...opts,
      headers: { ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
    } as InjectOptions);
    for (const c of res.cookies as Res['cookies']) {
      if (c.value === '' || c.maxAge === 0) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {}
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      json,
      cookies: res.cookies as Res['cookies'],
    };
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, form: Record<string, string | string[] | undefined>) {
    return this.request({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody(form),
    });
  }
}

export function formBody(form: Record<string, string | string[] | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form))
    for (const x of v === undefined ? [] : Array.isArray(v) ? v : [v]) p.append(k, x);
  return p.toString();
}

/** The value of a named hidden or text input on an HTML page. */
export function inputValue(html: string, name: string): string | undefined {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return m?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) p.append(k, v);
  return `/oauth/authorize?${p.toString()}`;
}

/** Signs in through the sign-in page that GET `url` shows, then follows the redirect back to `url`. */
export async function signInAt(b: Browser, url: string, email: string, password = PASSWORD): Promise<Res> {
  const page = await b.get(url);
  assert.equal(page.status, 200, page.body);
  assert.match(page.body, /Sign in/);
  const res = await b.post('/sign-in', {
    csrf_token: inputValue(page.body, 'csrf_token'),
    return_to: inputValue(page.body, 'return_to'),
    email,
    password,
  });
  assert.equal(res.status, 303, res.body);
  return b.get(res.headers.location);
}

/** Allow (or Deny) on the consent page and return the redirect location. */
export async function decide(b: Browser, consent: Res, decision: 'allow' | 'deny'): Promise<URL> {
  assert.equal(consent.status, 200, consent.body);
  const form: Record<string, string | undefined> = { decision };
  for (const name of ['csrf_token', 'client_id', 'redirect_uri', 'response_type', 'scope', 'state'])
    form[name] = inputValue(consent.body, name);
  const res = await b.post('/oauth/authorize', form);
  assert.equal(res.status, 302, res.body);
  return new URL(res.headers.location);
}

/** The whole browser part: authorize, sign in as `email`, Allow; returns the code. */
export async function authorize(
  t: OAuthTestApp,
  opts: { scope?: string; state?: string; email?: string; client?: RegisteredApp; browser?: Browser } = {},
): Promise<string> {
  const client = opts.client ?? t.client;
  const b = opts.browser ?? new Browser(t.app);
  const url = authorizeUrl({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    response_type: 'code',
    scope: opts.scope ?? 'vehicles.read',
    state: opts.state ?? 'xyz',
  });
  let page = b.jar.has('fleet_session') ? await b.get(url) : await signInAt(b, url, opts.email ?? t.fleet.admin.email);
  if (page.status === 302) return new URL(page.headers.location).searchParams.get('code')!;
  const to = await decide(b, page, 'allow');
  const code = to.searchParams.get('code');
  assert.ok(code, `no code in ${to}`);
  return code;
}

export async function token(
  t: OAuthTestApp,
  params: Record<string, string | undefined>,
  opts: { query?: boolean; headers?: Record<string, string>; ip?: string } = {},
): Promise<Res> {
  const b = new Browser(t.app, opts.ip);
  if (opts.query) return b.request({ method: 'POST', url: `/oauth/token?${formBody(params)}`, headers: opts.headers });
  return b.request({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    payload: formBody(params),
  });
}

export function exchange(
  t: OAuthTestApp,
  code: string,
  client: RegisteredApp = t.client,
  extra: Record<string, string> = {},
): Promise<Res> {
  return token(t, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirect_uris[0],
    client_id: client.client_id,
    client_secret: client.client_secret,
    ...extra,
  });
}

export function refresh(
  t: OAuthTestApp,
  refreshToken: string,
  client: RegisteredApp = t.client,
  extra: Record<string, string> = {},
): Promise<Res> {
  return token(t, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    redirect_uri: client.redirect_uris[0],
    client_id: client.client_id,
    client_secret: client.client_secret,
    ...extra,
  });
}

/** Authorize and exchange: a fresh token response for `scope`. */
export async function tokensFor(
  t: OAuthTestApp,
  scope = 'vehicles.read',
  opts: { email?: string; client?: RegisteredApp } = {},
): Promise<any> {
  const res = await exchange(t, await authorize(t, { scope, ...opts }), opts.client);
  assert.equal(res.status, 200, res.body);
  return res.json;
}

export function api(t: OAuthTestApp, accessToken: string, opts: InjectOptions = {}): Promise<Res> {
  return new Browser(t.app).request({
    method: 'GET',
    ...opts,
    headers: { authorization: `Bearer ${accessToken}`, ...(opts.headers ?? {}) },
  });
}

/** A vehicle created through the API with the fleet's API key. */
export async function vehicle(t: OAuthTestApp, fleet: Fleet = t.fleet): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/vehicles',
    headers: { 'x-api-key': fleet.apiKey },
    payload: { number: `T-${uniq()}` },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().vehicle.id;
}

/** `{"error","error_description"}` with exactly these keys, the status, and no-store. */
export function assertOAuthError(res: Res, status: number, error: string, description?: string | RegExp): void {
  assert.equal(res.status, status, res.body);
  assert.deepEqual(Object.keys(res.json ?? {}), ['error', 'error_description'], res.body);
  assert.equal(res.json.error, error);
  if (typeof description === 'string') assert.equal(res.json.error_description, description);
  else if (description) assert.match(res.json.error_description, description);
  assert.equal(res.headers['cache-control'], 'no-store');
}

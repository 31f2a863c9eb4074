/**
 * The scope map (issue: "a test fails if any registered route has no scope"): every versioned route
 * declares a scope, the scope the map names for it, shown in the OpenAPI document and in docs/scopes.md,
 * and the guard refuses a token without it and lets a token with only it through.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { SCOPES, isScope } from '../../../src/auth/scopes.js';
import { SCOPE_MAP, mappedScope, methodRuleProblem } from '../../../src/auth/oauth/scope-map.js';
import { issueTokens } from '../../../src/auth/oauth/tokens.js';
import { runtimeFor } from '../../../src/auth/oauth/runtime.js';
import { json } from '../../../src/storage/values.js';
import { isVersioned } from '../../../src/http/oauth/install.js';
import { renderScopesDoc } from '../../../src/http/oauth/scope-doc.js';
import { api, useOAuthApp, type OAuthTestApp } from './flows.js';

/** The scope list of the specification's Authentication part, and the names docs/reference/wire.md §8.3 adds. */
const SPEC_SCOPES = `companies.read users.read users.manage vehicles.read vehicles.manage messages.read messages.manage
fuel_purchases.read fuel_purchases.manage groups.read groups.manage eld_devices.read inspection_reports.read fault_codes.read
driver_performance_events.read hos_logs.available_time hos_logs.hours_of_service hos_logs.hos_violation hos_logs.logs
locations.vehicle_locations_list locations.vehicle_locations_single locations.driver_locations ifta_reports.trips
ifta_reports.summary utilization.driver_utilization utilization.vehicle_utilization utilization.idle_events documents.read
dispatches.read dispatches.manage dispatch_locations.read dispatch_locations.manage forms.read form_entries.read
freight_visibility_vehicle_locations.read freight_visibility_vehicle_locations.manage freight_visibility_asset_locations.read
freight_visibility_asset_locations.manage`.split(/\s+/);
const WIRE_SCOPES =
  `scorecard_summary.read hos_logs.manage locations.asset_locations driving_periods.read speeding_events.read
camera_connections.read motive_card_transactions.read freight_visibility.manage assets.read geofence_events.read
company_webhooks.manage`.split(/\s+/);

eachDialect('oauth scope map', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let routes: Array<{ method: string; url: string; scope: string | undefined }>;
  before(async () => {
    t = await getApp();
    routes = t.app.apiRoutes.filter((r) => isVersioned(r.url));
  });

  test('every registered /v1, /v2, /v3 route declares a scope', () => {
    assert.ok(routes.length > 10);
    const missing = routes.filter((r) => !r.scope).map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(missing, [], 'routes without config.scope');
  });

  test('each declared scope is the one the scope map names, and follows the method rule', () => {
    for (const r of routes) {
      assert.ok(r.scope && isScope(r.scope), `${r.method} ${r.url}: ${r.scope} is not in the catalogue`);
      const mapped = mappedScope(r.method, r.url);
      if (mapped) assert.equal(r.scope, mapped, `${r.method} ${r.url}`);
      assert.equal(methodRuleProblem(r.method, r.scope!), null, `${r.method} ${r.url}`);
    }
  });

  test('the catalogue holds every scope of the specification and of docs/reference/wire.md §8.3; the map uses only catalogue scopes', () => {
    for (const s of [...SPEC_SCOPES, ...WIRE_SCOPES]) assert.ok(isScope(s), s);
    for (const e of SCOPE_MAP) {
      assert.ok(isScope(e.scope), `${e.method} ${e.path}`);
      assert.equal(methodRuleProblem(e.method, e.scope), null, `${e.method} ${e.path}`);
    }
    const keys = SCOPE_MAP.map((e) => `${e.method} ${e.path}`);
    assert.equal(new Set(keys).size, keys.length, 'no endpoint twice');
  });

  test('docs/scopes.md is what the catalogue, the map and the routes generate (run `npx tsx scripts/write-scopes.ts`)', () => {
    const committed = readFileSync(new URL('../../../docs/scopes.md', import.meta.url), 'utf8');
    assert.equal(renderScopesDoc(t.app.apiRoutes), committed);
  });

  test('the OpenAPI document gives every versioned operation its security requirement, and declares the oauth2 scheme', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const scheme = doc.components.securitySchemes.oauth2;
    assert.equal(scheme.type, 'oauth2');
    assert.equal(scheme.flows.authorizationCode.authorizationUrl, '/oauth/authorize');
    assert.equal(scheme.flows.authorizationCode.tokenUrl, '/oauth/token');
    assert.deepEqual(Object.keys(scheme.flows.authorizationCode.scopes), Object.keys(SCOPES));
    for (const r of routes) {
      const path = r.url.replace(/:([^/]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      assert.ok(op, `${r.method} ${path} is in the document`);
      assert.deepEqual(op.security, [{ apiKey: [] }, { oauth2: [r.scope] }], `${r.method} ${path}`);
    }
  });

  test('the guard on every route: a token without the scope → 403 naming it; a token with only that scope gets past the guard', async () => {
    /** A token with exactly `scopes`, under a grant of its own (one active grant per company and app). */
    const mint = async (scopes: string[]) => {
      const rt = runtimeFor(t.db);
      const client = await t.newClient({ scopes });
      const now = rt.nowIso();
      const g = await t.db.kysely
        .insertInto('oauth_grants')
        .values({
          company_id: t.fleet.companyId,
          app_id: client.id,
          user_id: null,
          scopes: json(scopes),
          created_at: now,
          updated_at: now,
          revoked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tok = await issueTokens(t.db.kysely, rt, {
        grantId: g.id,
        appId: client.id,
        companyId: t.fleet.companyId,
        codeId: null,
        parentId: null,
        accessScopes: scopes,
        refreshScopes: null,
      });
      return tok.access_token;
    };
    const none = await mint(['camera_connections.read']);
    const byScope = new Map<string, string>();
    for (const r of routes) {
      const url = r.url.replace(/:[^/]+/g, '1');
      const opts = {
        method: r.method as 'GET',
        url,
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
      };
      const refused = await api(t, none, opts);
      assert.equal(refused.status, 403, `${r.method} ${r.url} without ${r.scope}: ${refused.body}`);
      assert.ok(refused.json.error_message.includes(r.scope!), `${r.method} ${r.url} names ${r.scope}`);
      assert.match(refused.headers['www-authenticate'], new RegExp(`scope="${r.scope!.replace(/\./g, '\\.')}"`));
      if (!byScope.has(r.scope!)) byScope.set(r.scope!, await mint([r.scope!]));
      const allowed = await api(t, byScope.get(r.scope!)!, opts);
      assert.ok(
        ![401, 403].includes(allowed.status),
        `${r.method} ${r.url} with only ${r.scope}: ${allowed.status} ${allowed.body}`,
      );
    }
  });
});

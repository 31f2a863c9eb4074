/**
 * The developer portal's scope picker: every scope of the catalogue once, under the group of its area,
 * each group with an "All" box that is a form field of its own; registering with a ticked "All" box
 * asks for the whole group (so select-all works without script); an unknown group is refused and
 * registers nothing; the page's one inline script runs under its hash and nothing else.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { Browser, PASSWORD, REDIRECT, inputValue, uniq, useOAuthApp, type OAuthTestApp } from './flows.js';
import { SCOPES } from '../../../src/auth/scopes.js';
import { SCOPE_GROUPS, scopeArea } from '../../../src/http/oauth/views/portal/scope-groups.js';

eachDialect('oauth developer portal scope picker', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });

  async function signedUp(): Promise<Browser> {
    const b = new Browser(t.app);
    const form = await b.get('/developers/sign-up');
    const res = await b.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'Dana Dev',
      email: `dev.${uniq()}@apps.test`,
      password: PASSWORD,
    });
    assert.equal(res.status, 303, res.body);
    return b;
  }
  const appCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('oauth_apps')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listed = (body: string) =>
    [...body.matchAll(/<li>[^<]*<code class="muted">([^<]+)<\/code><\/li>/g)].map((m) => m[1]);

  test('the scopes by area, each once, with an "All" box per group; the script runs under its hash', async () => {
    const b = await signedUp();
    const page = await b.get('/developers/apps/new');
    assert.equal(page.status, 200);
    const groups = [
      ...page.body.matchAll(/<fieldset class="scope-group"><legend>([^<]+)<\/legend>([\s\S]*?)<\/fieldset>/g),
    ];
    assert.deepEqual(
      groups.map((g) => g[1]),
      SCOPE_GROUPS.map((g) => g.label),
    );
    const seen: string[] = [];
    for (const [, label, inner] of groups) {
      const g = SCOPE_GROUPS.find((x) => x.label === label)!;
      assert.match(inner, new RegExp(`<input id="group-${g.key}" type="checkbox" name="scope_group" value="${g.key}"`));
      assert.ok(inner.includes(`<strong>All of ${label} (${g.scopes.length})</strong>`), label);
      const boxes = [...inner.matchAll(/name="scopes" value="([^"]+)" data-group="([^"]+)"/g)];
      assert.ok(boxes.every((m) => m[2] === g.key));
      seen.push(...boxes.map((m) => m[1]));
      // One area is never split between groups.
      for (const m of boxes)
        assert.ok(
          SCOPE_GROUPS.every((o) => o === g || !o.scopes.some((s) => scopeArea(s) === scopeArea(m[1]))),
          m[1],
        );
    }
    assert.deepEqual([...seen].sort(), Object.keys(SCOPES).sort(), 'every scope once');
    for (const [key, scope] of [
      ['users', 'users.read'],
      ['vehicles', 'vehicles.manage'],
      ['hos', 'hos_logs.logs'],
      ['hos', 'driving_periods.read'],
      ['ifta', 'ifta_reports.summary'],
      ['ifta', 'fuel_purchases.read'],
      ['freight', 'freight_visibility_asset_locations.read'],
    ])
      assert.ok(SCOPE_GROUPS.find((g) => g.key === key)!.scopes.includes(scope as never), `${scope} in ${key}`);

    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1);
    const hash = createHash('sha256').update(scripts[0]).digest('base64');
    const csp = page.headers['content-security-policy'] as string;
    assert.match(
      csp,
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; frame-ancestors 'none'; base-uri 'none'; script-src 'sha256-/,
    );
    assert.ok(csp.endsWith(`; script-src 'sha256-${hash}'`), csp);
  });

  test('a ticked "All" box registers the whole group; an unknown group is refused and registers nothing', async () => {
    const b = await signedUp();
    const form = await b.get('/developers/apps/new');
    const csrf = inputValue(form.body, 'csrf_token')!;
    const hos = SCOPE_GROUPS.find((g) => g.key === 'hos')!;
    const made = await b.post('/developers/apps', {
      csrf_token: csrf,
      name: 'Logbook',
      redirect_uris: REDIRECT,
      scopes: ['vehicles.read', 'hos_logs.logs'],
      scope_group: 'hos',
    });
    assert.equal(made.status, 201, made.body);
    assert.deepEqual(listed(made.body), [
      'vehicles.read',
      'hos_logs.logs',
      ...hos.scopes.filter((s) => s !== 'hos_logs.logs'),
    ]);

    const before = await appCount();
    const refused = await b.post('/developers/apps', {
      csrf_token: csrf,
      name: 'Nope',
      redirect_uris: REDIRECT,
      scopes: 'users.read',
      scope_group: ['ifta', 'trucks'],
    });
    assert.equal(refused.status, 400);
    assert.ok(
      refused.body.includes(
        `<p class="error" role="alert">unknown scope group &quot;trucks&quot;; the groups are ${SCOPE_GROUPS.map((g) => g.key).join(', ')}</p>`,
      ),
    );
    assert.equal(await appCount(), before, 'nothing registered');
    assert.match(
      refused.body,
      /<input id="scope-users-read" type="checkbox" name="scopes" value="users.read" data-group="users" checked>/,
    );
    assert.match(
      refused.body,
      /<input id="group-ifta" type="checkbox" name="scope_group" value="ifta" aria-controls="[^"]+">/,
    );

    // After another refusal the form keeps the whole group, its "All" box ticked.
    const again = await b.post('/developers/apps', {
      csrf_token: csrf,
      name: '',
      redirect_uris: REDIRECT,
      scope_group: 'ifta',
    });
    assert.equal(again.status, 400);
    assert.match(again.body, /name is required/);
    assert.match(
      again.body,
      /<input id="group-ifta" type="checkbox" name="scope_group" value="ifta" aria-controls="[^"]+" checked>/,
    );
    assert.match(again.headers['content-security-policy'], /script-src 'sha256-/);
  });
});

/** The small pure pieces of the OAuth module, table-driven. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TokenCache } from '../../../src/auth/oauth/token-cache.js';
import { requestedScopes, splitScopes } from '../../../src/auth/oauth/scope-param.js';
import { basicCredentials } from '../../../src/auth/oauth/token-endpoint.js';
import { redirectUriProblem, registerApp, validateAppInput } from '../../../src/auth/oauth/apps.js';
import { withSqliteFile } from '../../helper.js';
import { bearerChallenge } from '../../../src/auth/oauth/bearer.js';
import { TOKEN_FORMAT } from '../../../src/auth/oauth/tokens.js';
import { withQuery } from '../../../src/auth/oauth/authorize.js';
import { newSecret } from '../../../src/auth/secrets.js';
import { escapeHtml, html } from '../../../src/http/plumbing/html.js';
import { localPath } from '../../../src/http/plumbing/web-pages.js';

const principal = { companyId: 1, credential: { type: 'oauth_token' as const, id: 1 }, scopes: new Set<string>() };

describe('oauth units', () => {
  test('token cache: entries live at most the TTL, the oldest go first past the size bound, a grant can be dropped', () => {
    let now = 0;
    const c = new TokenCache(1000, 2, () => now);
    c.set('a', { principal, tokenId: 1, grantId: 10, expiresAtMs: 99_999 });
    now = 999;
    assert.ok(c.get('a'));
    now = 1000;
    assert.equal(c.get('a'), null, 'expired after 1000 ms');
    c.set('a', { principal, tokenId: 1, grantId: 10, expiresAtMs: 99_999 });
    c.set('b', { principal, tokenId: 2, grantId: 20, expiresAtMs: 99_999 });
    c.set('c', { principal, tokenId: 3, grantId: 10, expiresAtMs: 99_999 });
    assert.equal(c.size, 2);
    assert.equal(c.get('a'), null, 'the oldest entry was dropped');
    c.forgetGrant(10);
    assert.equal(c.get('c'), null);
    assert.ok(c.get('b'));
    c.forgetTokens([2]);
    assert.equal(c.get('b'), null);
    const off = new TokenCache(0, 10, () => now);
    off.set('x', { principal, tokenId: 1, grantId: 1, expiresAtMs: 1 });
    assert.equal(off.size, 0, 'a TTL of 0 turns the cache off');
  });

  test('scope parameter: single spaces separate, repeats collapse, anything else is part of a name', () => {
    assert.deepEqual(splitScopes('a b  a'), ['a', 'b']);
    assert.deepEqual(splitScopes('a,b'), ['a,b']);
    assert.deepEqual(splitScopes('a\tb'), ['a\tb']);
    const allowed = ['vehicles.read', 'users.read'];
    assert.deepEqual(requestedScopes('vehicles.read users.read', allowed), ['vehicles.read', 'users.read']);
    for (const bad of [
      undefined,
      '',
      ' ',
      'vehicles.read,users.read',
      'vehicles.read hos_logs.logs',
      'nope',
      'VEHICLES.READ',
    ]) {
      assert.equal(requestedScopes(bad, allowed), null, String(bad));
    }
  });

  test('HTTP Basic client credentials: form-urlencoded id and secret (RFC 6749 §2.3.1)', () => {
    const enc = (s: string) => Buffer.from(s).toString('base64');
    assert.deepEqual(basicCredentials(`Basic ${enc('my%20id:s%3Acret')}`), { clientId: 'my id', secret: 's:cret' });
    assert.deepEqual(basicCredentials(`basic ${enc('id:')}`), { clientId: 'id', secret: '' });
    assert.equal(basicCredentials(`Basic ${enc('nocolon')}`), 'malformed');
    assert.equal(basicCredentials(`Basic ${enc('%E0%A4%A:x')}`), 'malformed');
    assert.equal(basicCredentials('Bearer abc'), null);
    assert.equal(basicCredentials(undefined), null);
  });

  test('redirect URIs: absolute http(s), no fragment, no wildcard, no spaces', () => {
    assert.equal(redirectUriProblem('https://a.example/cb?x=1'), null);
    assert.equal(redirectUriProblem('http://localhost:8080/cb'), null);
    assert.match(redirectUriProblem('https://a.example/cb#x')!, /fragment/);
    assert.match(redirectUriProblem('https://*.a.example/cb')!, /wildcard/);
    assert.match(redirectUriProblem('/relative')!, /absolute/);
    assert.match(redirectUriProblem('javascript:alert(1)')!, /https/);
    assert.match(redirectUriProblem('https://a.example/a b')!, /spaces/);
    assert.throws(
      () =>
        validateAppInput({
          name: 'x',
          redirectUris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`),
          scopes: ['vehicles.read'],
        }),
      /at most 10/,
    );
    assert.throws(
      () =>
        validateAppInput({
          name: 'x',
          redirectUris: ['https://a.example/'],
          scopes: ['vehicles.read'],
          grantTypes: ['password'],
        }),
      /grant type/,
    );
  });

  test('withQuery adds parameters and keeps the registered query', () => {
    assert.equal(
      withQuery('https://a.example/cb?t=1', { code: 'c', state: 'a b&c', none: undefined }),
      'https://a.example/cb?t=1&code=c&state=a+b%26c',
    );
  });

  test('tokens: 256 bits of randomness in an opaque, prefixed string; the format check', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = newSecret('fa');
      assert.match(s, TOKEN_FORMAT);
      assert.equal(Buffer.from(s.slice(3), 'base64url').length, 32);
      seen.add(s);
    }
    assert.equal(seen.size, 200);
    assert.ok(!TOKEN_FORMAT.test('fa_short'));
    assert.ok(!TOKEN_FORMAT.test(`fx_${'a'.repeat(43)}`));
  });

  test('bearer challenge: quoted values with no quotes or backslashes inside', () => {
    assert.equal(
      bearerChallenge('invalid_token', 'say "hi" \\ bye'),
      `Bearer realm="api", error="invalid_token", error_description="say 'hi' ' bye"`,
    );
    assert.equal(
      bearerChallenge('insufficient_scope', 'd', { scope: 'users.read' }),
      'Bearer realm="api", error="insufficient_scope", error_description="d", scope="users.read"',
    );
  });

  test('HTML: every interpolation escaped, nested fragments kept', () => {
    assert.equal(
      escapeHtml(`<a href="x" onclick='y'>&\``),
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;',
    );
    const inner = html`<b>${'<i>'}</b>`;
    assert.equal(
      html`<p title="${'"q"'}">${inner}${['<', html`<br>`]}${null}${undefined}${false}</p>`.value,
      '<p title="&quot;q&quot;"><b>&lt;i&gt;</b>&lt;<br></p>',
    );
  });

  test('return paths after sign-in stay on this origin', () => {
    assert.equal(localPath('/oauth/authorize?a=1', '/x'), '/oauth/authorize?a=1');
    for (const bad of [undefined, '', 'https://evil.example', '//evil.example', '/\\evil', 'evil', '/a b'])
      assert.equal(localPath(bad, '/x'), '/x', String(bad));
  });
});

test('client ids never start with "-" (the CLI would read `--client-id -x…` as an option); 400 registrations, where 6 would be expected otherwise', async () => {
  await withSqliteFile(async (db) => {
    const now = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 400; i++)
      ids.push(
        (
          await registerApp(
            db,
            { name: `App ${i}`, redirectUris: ['https://app.example/cb'], scopes: ['vehicles.read'] },
            now,
          )
        ).client_id,
      );
    assert.deepEqual(
      ids.filter((id) => id.startsWith('-')),
      [],
    );
    assert.ok(
      ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/.test(id)),
      ids[0],
    );
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openApiDocument } from '../../src/http/public-api/openapi-document.js';
import { makeApp } from '../helper.js';

describe('OpenAPI document', () => {
  it('docs/openapi.json is what the route schemas generate (run `npm run openapi` after changing a route)', async () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    assert.equal(await openApiDocument(), committed);
  });

  it('is served at /openapi.json as OpenAPI 3.1, and the docs UI at /docs', async () => {
    const t = await makeApp('sqlite');
    try {
      const doc = await t.app.inject({ url: '/openapi.json' });
      assert.equal(doc.statusCode, 200);
      const body = doc.json();
      assert.equal(body.openapi, '3.1.0');
      assert.ok(body.paths['/v1/users/{id}'].put);
      const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
      assert.equal(body.info.version, version, 'the document carries the package version');
      for (const url of ['/docs', '/docs/']) {
        const ui = await t.app.inject({ url });
        assert.equal(ui.statusCode, 200);
        assert.match(ui.body, new RegExp(`<title>Fleet platform API ${version.replace(/\./g, '\\.')}</title>`));
        assert.match(
          ui.body,
          /<head>\n<meta name="viewport" content="width=device-width, initial-scale=1">/,
          'a phone draws it at its own width',
        );
      }
      assert.doesNotMatch(doc.body, /viewport/, 'only the docs pages are touched');
    } finally {
      await t.close();
    }
  });

  it('every versioned API route declares the scope it needs (and so requires a credential)', async () => {
    const doc = JSON.parse(await openApiDocument());
    const t = await makeApp('sqlite');
    try {
      for (const [path, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
        if (!/^\/v\d\//.test(path)) continue;
        for (const method of Object.keys(methods)) {
          const url = path.replace(/\{[^}]+\}/g, '1');
          const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
          assert.equal(
            res.statusCode,
            401,
            `${method.toUpperCase()} ${path} answered ${res.statusCode} without a credential`,
          );
        }
      }
    } finally {
      await t.close();
    }
  });
});

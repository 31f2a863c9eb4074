/**
 * Route schemas are compiled on a route's first request, not when the app is built
 * (src/http/plumbing/compiled-schemas.ts, `deferred`): this file proves that every schema of the API
 * compiles, and that a route validates and serializes the same whether its schemas were compiled by
 * its first request or beforehand.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeApp } from '../../helper.js';
import { compilePending } from '../../../src/http/plumbing/compiled-schemas.js';

describe('deferred schema compilation', () => {
  let close: (() => Promise<void>) | null = null;
  after(() => close?.());

  it('leaves schemas uncompiled until their first use, and every one of them compiles', async () => {
    const t = await makeApp('sqlite');
    close = () => t.close();
    // The first request of a route compiles its validators and serializer, and answers as ever.
    const bad = await t.call({ method: 'GET', url: '/v1/vehicles?per_page=abc' });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body), ['error_message']);
    assert.match(bad.body.error_message, /per_page/);
    const ok = await t.call({ method: 'GET', url: '/v1/vehicles?per_page=5' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.pagination, { per_page: 5, page_no: 1, total: 0 });

    // Hundreds of route schemas were still waiting; every one compiles (a broken schema throws here).
    const compiled = compilePending();
    assert.ok(compiled > 100, `only ${compiled} schemas were waiting`);
    assert.equal(compilePending(), 0);

    // Compiled beforehand, the same answers.
    const again = await t.call({ method: 'GET', url: '/v1/vehicles?per_page=abc' });
    assert.deepEqual([again.status, again.body], [400, bad.body]);
    const ifta = await t.call({ method: 'GET', url: '/v1/ifta/trips?start_date=2026-01-01&end_date=0000-01-01' });
    assert.equal(ifta.status, 400);
    assert.match(ifta.body.error_message, /end_date/);
  });
});

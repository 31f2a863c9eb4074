/**
 * GET /v1/companies (docs/reference/wire.md §3.3, §4.19, rule R24): exactly one `company`, the caller's own, with
 * integer `id`, string `company_id` ("FP" + 7 digits) and `name`, plus the other documented keys.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const COMPANY_KEYS = [
  'id',
  'company_id',
  'name',
  'street',
  'city',
  'state',
  'zip',
  'dot_ids',
  'cycle',
  'time_zone',
  'exception_24_hour_restart',
  'exception_8_hour_break',
  'exception_wait_time',
  'exception_short_haul',
  'exception_ca_farm_school_bus',
  'exception_adverse_driving',
  'metric_units',
  'created_at',
  'updated_at',
];

const code = (id: number) => `FP${String(id).padStart(7, '0')}`;

/** The wire object of a company created with defaults, timestamps taken from the response. */
function defaults(c: TestCompany, name: string, got: any) {
  return {
    id: c.id,
    company_id: code(c.id),
    name,
    street: null,
    city: null,
    state: null,
    zip: null,
    dot_ids: [],
    cycle: '70_8',
    time_zone: 'Eastern Time (US & Canada)',
    exception_24_hour_restart: false,
    exception_8_hour_break: false,
    exception_wait_time: false,
    exception_short_haul: false,
    exception_ca_farm_school_bus: false,
    exception_adverse_driving: false,
    metric_units: false,
    created_at: got.created_at,
    updated_at: got.updated_at,
  };
}

async function companies(t: TestApp, as?: TestCompany, query = '') {
  const res = await t.call({ method: 'GET', url: `/v1/companies${query}`, as });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(Object.keys(res.body), ['companies', 'pagination']);
  for (const item of res.body.companies) assert.deepEqual(Object.keys(item), ['company']);
  return res.body;
}

eachDialect('companies', (dialect) => {
  const get = useApp(dialect);

  it("GET /v1/companies returns exactly the caller's company, with every documented key", async () => {
    const t = await get();
    const body = await companies(t);
    assert.equal(body.companies.length, 1);
    const c = body.companies[0].company;
    assert.deepEqual(Object.keys(c), COMPANY_KEYS);
    assert.deepEqual(c, defaults(t.company, 'Acme Freight', c));
    assert.ok(Number.isInteger(c.id));
    assert.equal(typeof c.company_id, 'string');
    assert.match(c.company_id, /^FP\d{7}$/);
    assert.match(c.created_at, DATETIME);
    assert.match(c.updated_at, DATETIME);
    assert.deepEqual(body.pagination, { per_page: 25, page_no: 1, total: 1 });
  });

  it('tolerates the usual path and query variants, and pages like any list', async () => {
    const t = await get();
    const base = await companies(t);
    assert.deepEqual(await companies(t, undefined, '.json'), base);
    assert.deepEqual((await t.call({ method: 'GET', url: '/v1//companies?page=3&foo=bar' })).body, base);
    assert.deepEqual(
      (await t.call({ method: 'GET', url: '/v1/companies', headers: { 'content-type': 'application/json' } })).body,
      base,
    );
    assert.deepEqual(await companies(t, undefined, '?per_page=1'), {
      ...base,
      pagination: { per_page: 1, page_no: 1, total: 1 },
    });
    assert.deepEqual(await companies(t, undefined, '?per_page=101'), {
      ...base,
      pagination: { per_page: 100, page_no: 1, total: 1 },
    });
    assert.deepEqual(await companies(t, undefined, '?page_no=2'), {
      companies: [],
      pagination: { per_page: 25, page_no: 2, total: 1 },
    });
  });

  it('a second company sees only itself; its settings are on the wire', async () => {
    const t = await get();
    const row = await createCompany(t.db, {
      name: 'Second Haul',
      street: '1 Main St',
      city: 'Tulsa',
      state: 'OK',
      zip: '74103',
      dot_ids: ['1234567'],
      cycle: '60_7',
      time_zone: 'Central Time (US & Canada)',
      metric_units: true,
    });
    const key = await createApiKey(t.db, row.id, 'second');
    const second: TestCompany = { id: row.id, apiKey: key.api_key, headers: { 'x-api-key': key.api_key } };
    const third = await t.newCompany('Third Co');
    assert.notEqual(second.id, t.company.id);

    const body = await companies(t, second);
    const c = body.companies[0].company;
    assert.deepEqual(body, {
      companies: [
        {
          company: {
            ...defaults(second, 'Second Haul', c),
            street: '1 Main St',
            city: 'Tulsa',
            state: 'OK',
            zip: '74103',
            dot_ids: ['1234567'],
            cycle: '60_7',
            time_zone: 'Central Time (US & Canada)',
            metric_units: true,
          },
        },
      ],
      pagination: { per_page: 25, page_no: 1, total: 1 },
    });
    const other = await companies(t, third);
    assert.deepEqual(
      other.companies.map((x: any) => [x.company.id, x.company.company_id, x.company.name]),
      [[third.id, code(third.id), 'Third Co']],
    );
    const first = await companies(t);
    assert.deepEqual(
      first.companies.map((x: any) => x.company.id),
      [t.company.id],
    );
    assert.equal(new Set([t.company.id, second.id, third.id].map(code)).size, 3, 'company codes are distinct');
  });

  it('needs a valid API key', async () => {
    const t = await get();
    const none = await t.app.inject({ method: 'GET', url: '/v1/companies' });
    assert.equal(none.statusCode, 401);
    assert.deepEqual(Object.keys(JSON.parse(none.body)), ['error_message']);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/companies', headers: { 'X-Api-Key': 'not-a-key' } });
    assert.equal(bad.statusCode, 401);
    assert.deepEqual(JSON.parse(bad.body), { error_message: 'invalid API key' });
    const upper = await t.app.inject({
      method: 'GET',
      url: '/v1/companies',
      headers: { 'X-API-KEY': t.company.apiKey },
    });
    assert.equal(upper.statusCode, 200);
    const post = await t.call({ method: 'POST', url: '/v1/companies', payload: {} });
    assert.equal(post.status, 405);
    assert.deepEqual(Object.keys(post.body), ['error_message']);
    assert.match(String(post.headers.allow), /GET/);
  });
});

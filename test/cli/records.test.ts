/**
 * `fleet … list` and `fleet … show` for companies, users, vehicles, devices, API keys and apps, as
 * tables and as JSON, run as real processes on a real database (SQLite file; PostgreSQL too when
 * TEST_POSTGRES_URL is set). The JSON of users and vehicles is what the API answers for them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { dialects } from '../helper.js';
import { databaseFor, fleet, human, jsonOf, ok } from '../cli-process.js';

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g;
/** A table with its times written as `YYYY-MM-DDTHH:MM:SSZ` (as wide), so it can be compared whole. */
const masked = (s: string) => s.replace(TIME, 'YYYY-MM-DDTHH:MM:SSZ');

type Json = Record<string, any>;

/** GET `url` from an app on the same database, as the company of `apiKey`. */
async function apiGet(databaseUrl: string, apiKey: string, url: string): Promise<Json> {
  const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  try {
    const res = await app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  } finally {
    await app.close();
  }
}

for (const dialect of dialects()) {
  describe(`fleet list and show [${dialect}]`, () => {
    it('lists and shows every kind of record, as a table and as JSON', async () => {
      const database = await databaseFor(dialect, 'lists');
      const env = { DATABASE_URL: database.url };
      try {
        // Nothing yet: a sentence, and an empty list in JSON.
        assert.equal(
          await human(['company', 'list'], env),
          'No company yet: fleet company create --name NAME makes one.\n',
        );
        assert.deepEqual(await ok(['company', 'list'], env), { companies: [], total: 0 });

        await ok(['company', 'create', '--name', 'Acme Freight'], env);
        await ok(['company', 'create', '--name', 'Beta Haulage'], env);
        await ok(
          [
            'user',
            'create',
            '--company',
            '1',
            '--role',
            'admin',
            '--email',
            'jane.doe@acme.test',
            '--password',
            'a long admin passphrase',
          ],
          env,
        );
        await ok(
          [
            'user',
            'create',
            '--company',
            '1',
            '--role',
            'driver',
            '--username',
            'bwalker',
            '--password',
            'a long driver passphrase',
            '--first-name',
            'Bo',
            '--last-name',
            'Walker',
          ],
          env,
        );
        await ok(
          [
            'vehicle',
            'create',
            '--company',
            '1',
            '--number',
            'T-1',
            '--make',
            'Volvo',
            '--model',
            'VNL 860',
            '--year',
            '2021',
            '--vin',
            '4V4NC9EH5MN123456',
          ],
          env,
        );
        await ok(['vehicle', 'create', '--company', '1', '--number', 'T-2'], env);
        await ok(['device', 'create', '--company', '1', '--vehicle', '1', '--identifier', 'SN-0001'], env);
        await ok(['device', 'create', '--company', '1', '--vehicle', '2', '--identifier', 'SN-0002'], env);
        await ok(['device', 'revoke', '--company', '1', '--id', '2'], env);
        const key = (await ok(['api-key', 'create', '--company', '1', '--name', 'ci'], env)) as Json;
        await ok(['api-key', 'create', '--company', '1', '--name', 'old'], env);
        await ok(['api-key', 'revoke', '--id', '2'], env);
        const app = (await ok(
          [
            'app',
            'create',
            '--name',
            'Route Planner',
            '--redirect-uri',
            'https://planner.test/cb',
            '--scopes',
            'vehicles.read users.read',
          ],
          env,
        )) as Json;

        // Companies.
        assert.equal(
          masked(await human(['company', 'list'], env)),
          [
            'ID  CODE       NAME          TIME ZONE                   CREATED',
            ' 1  FP0000001  Acme Freight  Eastern Time (US & Canada)  YYYY-MM-DDTHH:MM:SSZ',
            ' 2  FP0000002  Beta Haulage  Eastern Time (US & Canada)  YYYY-MM-DDTHH:MM:SSZ',
            '',
          ].join('\n'),
        );
        const companies = (await ok(['company', 'list'], env)) as Json;
        assert.equal(companies.total, 2);
        assert.deepEqual(
          companies.companies.map((c: Json) => [c.id, c.company_id, c.name]),
          [
            [1, 'FP0000001', 'Acme Freight'],
            [2, 'FP0000002', 'Beta Haulage'],
          ],
        );
        const beta = (await ok(['company', 'show', '--id', 'fp0000002'], env)) as Json;
        assert.deepEqual(beta, companies.companies[1]);
        assert.match(
          await human(['company', 'show', '--id', '2'], env),
          /^id: +2\ncompany_id: +FP0000002\nname: +Beta Haulage\n/,
        );

        // Users: the JSON is the API's user.
        assert.equal(
          await human(['user', 'list', '--company', '1'], env),
          [
            'ID  ROLE    STATUS  NAME       LOGIN',
            ' 1  admin   active  Jane Doe   jane.doe@acme.test',
            ' 2  driver  active  Bo Walker  bwalker',
            '',
          ].join('\n'),
        );
        const apiUsers = await apiGet(database.url, key.api_key, '/v1/users');
        assert.deepEqual(await ok(['user', 'list', '--company', 'FP0000001'], env), {
          users: apiUsers.users.map((u: Json) => u.user),
          total: 2,
        });
        assert.deepEqual(await ok(['user', 'list', '--company', '1', '--role', 'driver'], env), {
          users: [apiUsers.users[1].user],
          total: 1,
        });
        assert.equal(
          await human(['user', 'list', '--company', '1', '--limit', '1'], env),
          'ID  ROLE   STATUS  NAME      LOGIN\n 1  admin  active  Jane Doe  jane.doe@acme.test\n1–1 of 2 (--offset 1 for the next ones)\n',
        );
        assert.equal(
          await human(['user', 'list', '--company', '1', '--limit', '1', '--offset', '1'], env),
          'ID  ROLE    STATUS  NAME       LOGIN\n 2  driver  active  Bo Walker  bwalker\n2–2 of 2\n',
        );
        assert.equal(await human(['user', 'list', '--company', '2'], env), 'No user in company 2.\n');
        const driver = (await ok(['user', 'show', '--company', '1', '--id', '2'], env)) as Json;
        assert.deepEqual(driver, (await apiGet(database.url, key.api_key, '/v1/users/2')).user);
        assert.equal(driver.username, 'bwalker');
        assert.ok(!('password_hash' in driver) && !JSON.stringify(driver).includes('scrypt'));
        const shown = await human(['user', 'show', '--company', '1', '--id', '2'], env);
        assert.match(shown, /^id: +2\nemail: +-\nfirst_name: +Bo\nlast_name: +Walker\n/);
        assert.match(shown, /\nusername: +bwalker\n/);

        // Vehicles: the JSON is the API's vehicle, with its ELD.
        assert.equal(
          await human(['vehicle', 'list', '--company', '1'], env),
          [
            'ID  NUMBER  STATUS  MAKE   MODEL    YEAR  VIN                ELD',
            ' 1  T-1     active  Volvo  VNL 860  2021  4V4NC9EH5MN123456  SN-0001',
            ' 2  T-2     active  -      -        -     -                  -',
            '',
          ].join('\n'),
        );
        const apiVehicles = await apiGet(database.url, key.api_key, '/v1/vehicles');
        assert.deepEqual(await ok(['vehicle', 'list', '--company', '1'], env), {
          vehicles: apiVehicles.vehicles.map((v: Json) => v.vehicle),
          total: 2,
        });
        const t1 = (await ok(['vehicle', 'show', '--company', '1', '--id', '1'], env)) as Json;
        assert.deepEqual(t1, (await apiGet(database.url, key.api_key, '/v1/vehicles/1')).vehicle);
        assert.deepEqual(t1.eld_device, { id: 1, identifier: 'SN-0001', model: 'eld-1' });
        assert.match(
          await human(['vehicle', 'show', '--company', '1', '--id', '1'], env),
          /\neld_device: +\{"id":1,"identifier":"SN-0001","model":"eld-1"\}\n/,
        );

        // Devices: the live ones, or all with --revoked; never a credential.
        assert.equal(
          masked(await human(['device', 'list', '--company', '1'], env)),
          [
            'ID  KIND  IDENTIFIER  MODEL  BOUND TO   LAST SEEN  REVOKED',
            ' 1  eld   SN-0001     eld-1  vehicle 1  -          -',
            '',
          ].join('\n'),
        );
        const devices = (await ok(['device', 'list', '--company', '1', '--revoked'], env)) as Json;
        assert.equal(devices.total, 2);
        assert.deepEqual(
          devices.devices.map((d: Json) => [d.id, d.identifier, d.vehicle_id, d.revoked_at === null]),
          [
            [1, 'SN-0001', 1, true],
            [2, 'SN-0002', 2, false],
          ],
        );
        assert.match(devices.devices[1].revoked_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        const device = (await ok(['device', 'show', '--company', '1', '--id', '2'], env)) as Json;
        assert.deepEqual(device, devices.devices[1]);
        assert.deepEqual(Object.keys(device), [
          'id',
          'company_id',
          'kind',
          'identifier',
          'model',
          'vehicle_id',
          'asset_id',
          'last_seen_at',
          'revoked_at',
          'created_at',
          'updated_at',
        ]);
        // Another company's device is not found through this one.
        const other = await fleet(['device', 'show', '--company', '2', '--id', '1', '--json'], env);
        assert.equal(other.code, 1);
        assert.deepEqual(jsonOf(other), { error_message: 'device 1 not found' });

        // API keys: the name and the first 7 characters, never the key.
        assert.equal(
          masked(await human(['api-key', 'list', '--company', '1'], env)),
          [
            'ID  NAME  PREFIX    CREATED               REVOKED',
            ` 1  ci    ${key.api_key.slice(0, 7)}…  YYYY-MM-DDTHH:MM:SSZ  -`,
            '',
          ].join('\n'),
        );
        const keys = (await ok(['api-key', 'list', '--company', '1', '--revoked'], env)) as Json;
        assert.equal(keys.total, 2);
        assert.deepEqual(keys.api_keys[0], {
          id: 1,
          company_id: 1,
          name: 'ci',
          key_prefix: key.api_key.slice(0, 7),
          created_at: keys.api_keys[0].created_at,
          revoked_at: null,
        });
        assert.equal(keys.api_keys[1].name, 'old');
        assert.match(keys.api_keys[1].revoked_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.deepEqual(await ok(['api-key', 'show', '--id', '2'], env), keys.api_keys[1]);
        assert.ok(!JSON.stringify(keys).includes(key.api_key));

        // Apps: never the secret.
        assert.equal(
          masked(await human(['app', 'list'], env)),
          [
            'ID  CLIENT ID                         NAME           SCOPES                    DEVELOPER  CREATED',
            ` 1  ${app.client_id}  Route Planner  vehicles.read users.read  -          YYYY-MM-DDTHH:MM:SSZ`,
            '',
          ].join('\n'),
        );
        const shownApp = (await ok(['app', 'show', '--client-id', app.client_id], env)) as Json;
        assert.deepEqual(shownApp, {
          id: 1,
          client_id: app.client_id,
          name: 'Route Planner',
          redirect_uris: ['https://planner.test/cb'],
          scopes: ['vehicles.read', 'users.read'],
          grant_types: ['authorization_code', 'refresh_token'],
          developer_id: null,
          created_at: shownApp.created_at,
          updated_at: shownApp.updated_at,
        });
        assert.deepEqual(await ok(['app', 'list'], env), { apps: [shownApp], total: 1 });
        assert.ok(!JSON.stringify(shownApp).includes(app.client_secret));

        // Not found is a refusal (exit 1), named.
        for (const [args, message] of [
          [['user', 'show', '--company', '1', '--id', '99'], 'user 99 not found'],
          [['vehicle', 'show', '--company', '1', '--id', '99'], 'vehicle 99 not found'],
          [['company', 'show', '--id', '9'], 'company 9 not found'],
          [['api-key', 'show', '--id', '9'], 'API key 9 not found'],
          [['app', 'show', '--client-id', 'nope'], 'app with client_id nope not found'],
          [['user', 'list', '--company', '7'], 'company 7 not found'],
        ] as const) {
          const r = await fleet([...args, '--json'], env);
          assert.equal(r.code, 1, args.join(' '));
          assert.deepEqual(jsonOf(r), { error_message: message });
        }
      } finally {
        await database.drop();
      }
    });
  });
}

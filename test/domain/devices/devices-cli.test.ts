/**
 * `fleet device create` and `fleet device revoke`, run for real as child processes on a real database
 * (a SQLite file; PostgreSQL too when TEST_POSTGRES_URL is set).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/index.js';
import { TEST_ENV } from '../../test-env.js';
import { fleet, TMP } from '../../cli-process.js';
import { openDb } from '../../../src/storage/db.js';
import { authenticateDevice } from '../../../src/domain/devices/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';
import { dialects, freshDatabase } from '../../helper.js';

const json = (r: { stdout: string }) => JSON.parse(r.stdout.trim());

for (const dialect of dialects()) {
  describe(`fleet device [${dialect}]`, () => {
    it('creates an ELD bound to a vehicle, prints its credential once, and revokes it', async () => {
      const database =
        dialect === 'sqlite'
          ? { url: `sqlite:${join(TMP, 'devices.db')}`, drop: async () => {} }
          : await freshDatabase('postgres');
      const env = { DATABASE_URL: database.url };
      try {
        assert.equal((await fleet(['company', 'create', '--name', 'Acme', '--json'], env)).code, 0);
        assert.equal((await fleet(['company', 'create', '--name', 'Other', '--json'], env)).code, 0);
        // Vehicles through the API, as an operator's integration would.
        const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }));
        try {
          for (const [company, number] of [
            [1, 'T-1'],
            [1, 'T-2'],
            [2, 'X-1'],
          ] as const) {
            const key = await createApiKey(app.db, company, 'setup');
            const res = await app.inject({
              method: 'POST',
              url: '/v1/vehicles',
              headers: { 'x-api-key': key.api_key },
              payload: { number },
            });
            assert.equal(res.statusCode, 201);
          }
        } finally {
          await app.close();
        }

        const created = await fleet(
          [
            'device',
            'create',
            '--company',
            '1',
            '--vehicle',
            '1',
            '--identifier',
            'SN-0001',
            '--model',
            'lbb-1',
            '--json',
          ],
          env,
        );
        assert.equal(created.code, 0, created.stderr);
        const d = json(created);
        assert.deepEqual(Object.keys(d), ['id', 'company_id', 'vehicle_id', 'identifier', 'model', 'device_token']);
        assert.match(d.device_token, /^fd_[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(
          { ...d, device_token: 'x' },
          { id: 1, company_id: 1, vehicle_id: 1, identifier: 'SN-0001', model: 'lbb-1', device_token: 'x' },
        );

        const db = openDb(database.url, { poolSize: 1 });
        try {
          assert.deepEqual(await authenticateDevice(db, d.device_token), {
            deviceId: 1,
            companyId: 1,
            kind: 'eld',
            vehicleId: 1,
            assetId: null,
            identifier: 'SN-0001',
          });
        } finally {
          await db.close();
        }

        // Human output, by company code, default model.
        const human = await fleet(
          ['device', 'create', '--company', 'FP0000001', '--vehicle', '2', '--identifier', 'SN-0002'],
          env,
        );
        assert.equal(human.code, 0, human.stderr);
        assert.match(
          human.stdout,
          /^Provisioned ELD 2 on vehicle 2 \(SN-0002, eld-1\) in company 1\. Its credential is shown only this once:\nfd_[A-Za-z0-9_-]{43}\n$/,
        );

        const refusals: Array<[string[], string]> = [
          [
            ['--company', '1', '--vehicle', '1', '--identifier', 'SN-0009'],
            'vehicle 1 already has ELD device 1 (SN-0001); revoke it first',
          ],
          [['--company', '2', '--vehicle', '3', '--identifier', 'SN-0001'], 'identifier "SN-0001" is already taken'],
          [['--company', '2', '--vehicle', '1', '--identifier', 'SN-0003'], 'vehicle 1 not found'],
          [['--company', '9', '--vehicle', '1', '--identifier', 'SN-0003'], 'company 9 not found'],
          [['--company', '1', '--asset', '5', '--identifier', 'GW-1'], 'asset 5 not found'],
        ];
        for (const [args, message] of refusals) {
          const r = await fleet(['device', 'create', ...args, '--json'], env);
          assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
          assert.deepEqual(json(r), { error_message: message });
        }

        const revoked = await fleet(['device', 'revoke', '--company', '1', '--id', '1', '--json'], env);
        assert.equal(revoked.code, 0, revoked.stderr);
        assert.deepEqual(json(revoked), { id: 1, company_id: 1, identifier: 'SN-0001', revoked: true });
        const db2 = openDb(database.url, { poolSize: 1 });
        try {
          assert.equal(await authenticateDevice(db2, d.device_token), null);
        } finally {
          await db2.close();
        }
        const foreign = await fleet(['device', 'revoke', '--company', '2', '--id', '2', '--json'], env);
        assert.equal(foreign.code, 1);
        assert.deepEqual(json(foreign), { error_message: 'device 2 not found' });
        // The vehicle and serial are free for a replacement.
        const replacement = await fleet(
          ['device', 'create', '--company', '1', '--vehicle', '1', '--identifier', 'SN-0001', '--json'],
          env,
        );
        assert.equal(replacement.code, 0, replacement.stderr);
        assert.equal(json(replacement).id, 3);
      } finally {
        await database.drop();
      }
    });
  });
}

describe('fleet device usage', () => {
  it('wrong usage exits 2 before touching the database', async () => {
    const env = { DATABASE_URL: `sqlite:${join(TMP, 'usage.db')}` };
    const cases: Array<[string[], string]> = [
      [['--vehicle', '1', '--identifier', 'S'], '--company is required'],
      [['--company', '1', '--identifier', 'S'], '--vehicle is required (or --asset for an asset gateway)'],
      [
        ['--company', '1', '--vehicle', '1', '--asset', '2', '--identifier', 'S'],
        'give --vehicle or --asset, not both',
      ],
      [
        ['--company', '1', '--vehicle', 'abc', '--identifier', 'S'],
        '--vehicle must be a positive whole number, got "abc"',
      ],
      [['--company', '1', '--vehicle', '1'], '--identifier is required'],
    ];
    const runs = await Promise.all(cases.map(([args]) => fleet(['device', 'create', ...args, '--json'], env)));
    for (const [i, [args, message]] of cases.entries()) {
      assert.equal(runs[i].code, 2, `${args.join(' ')}: ${runs[i].stderr}`);
      assert.ok(runs[i].stderr.includes(message), runs[i].stderr);
      assert.match(runs[i].stderr, /fleet device create --company ID --vehicle VID --identifier SERIAL/);
    }
  });
});

for (const dialect of dialects()) {
  describe(`fleet vehicle create [${dialect}]`, () => {
    it('from an empty database to a device on a vehicle, with the CLI alone', async () => {
      const database =
        dialect === 'sqlite'
          ? { url: `sqlite:${join(TMP, 'vehicles.db')}`, drop: async () => {} }
          : await freshDatabase('postgres');
      const env = { DATABASE_URL: database.url };
      try {
        assert.equal((await fleet(['company', 'create', '--name', 'Acme', '--json'], env)).code, 0);
        const v = await fleet(
          ['vehicle', 'create', '--company', '1', '--number', 'T-9', '--make', 'Volvo', '--year', '2021', '--json'],
          env,
        );
        assert.equal(v.code, 0, v.stderr);
        assert.deepEqual(json(v), {
          id: 1,
          company_id: 1,
          number: 'T-9',
          vin: null,
          make: 'Volvo',
          model: null,
          year: '2021',
        });
        const d = await fleet(
          ['device', 'create', '--company', '1', '--vehicle', '1', '--identifier', 'SN-V1', '--json'],
          env,
        );
        assert.equal(d.code, 0, d.stderr);
        assert.equal(json(d).vehicle_id, 1);
        const long = await fleet(
          ['vehicle', 'create', '--company', '1', '--number', 'T-11', '--year', '1234567890', '--json'],
          env,
        );
        assert.deepEqual([long.code, json(long)], [2, { error_message: '--year must be at most 8 characters long' }]);
        const missing = await fleet(['vehicle', 'create', '--company', '1', '--json'], env);
        assert.deepEqual([missing.code, json(missing)], [2, { error_message: '--number is required' }]);
        const taken = await fleet(['vehicle', 'create', '--company', '1', '--number', 'T-9', '--json'], env);
        assert.equal(taken.code, 1);
        assert.match(json(taken).error_message, /T-9/);
        const human = await fleet(['vehicle', 'create', '--company', '1', '--number', 'T-10'], env);
        assert.equal(human.stdout, 'Created vehicle 2 "T-10" in company 1\n');
      } finally {
        await database.drop();
      }
    });
  });
}

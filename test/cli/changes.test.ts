/**
 * `fleet user update | set-password | deactivate` and `fleet vehicle update | deactivate`, run as real
 * processes on a real database (SQLite file; PostgreSQL too when TEST_POSTGRES_URL is set): the rules
 * are the services' (uniqueness, the password policy), sign-in follows the change, and each change is
 * announced to webhooks like one made through the API.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDb } from '../../src/storage/db.js';
import { verifyFleetUser } from '../../src/auth/oauth/accounts.js';
import { dialects } from '../helper.js';
import { databaseFor, fleet, human, jsonOf, ok } from '../cli-process.js';

type Json = Record<string, any>;

/** What a user would check: can this email and password sign in to the console? */
async function signsIn(url: string, email: string, password: string): Promise<boolean> {
  const db = openDb(url);
  try {
    return (await verifyFleetUser(db, email, password)).ok;
  } finally {
    await db.close();
  }
}

/** The webhook events recorded for one record, in order: `action trigger`. */
async function events(url: string, type: string, id: number): Promise<string[]> {
  const db = openDb(url);
  try {
    const rows = await db.kysely
      .selectFrom('domain_events')
      .select(['action', 'trigger'])
      .where('subject_type', '=', type)
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();
    return rows.map((r) => `${r.action} ${r.trigger}`);
  } finally {
    await db.close();
  }
}

/** Runs a command that must be refused (exit 1) and returns its `error_message`. */
async function refused(args: string[], env: Record<string, string>, stdin?: string): Promise<string> {
  const r = await fleet([...args, '--json'], env, { stdin });
  assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return (jsonOf(r) as Json).error_message;
}

for (const dialect of dialects()) {
  describe(`fleet user and vehicle changes [${dialect}]`, () => {
    it('updates a user, sets a password under the one policy, deactivates and reactivates', async () => {
      const database = await databaseFor(dialect, 'users');
      const env = { DATABASE_URL: database.url };
      const at = ['--company', '1', '--id', '1'];
      try {
        await ok(['company', 'create', '--name', 'Acme Freight'], env);
        await ok(
          [
            'user',
            'create',
            '--company',
            '1',
            '--role',
            'fleet_user',
            '--email',
            'ops@acme.test',
            '--password',
            'first passphrase of ops',
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
            'admin',
            '--email',
            'boss@acme.test',
            '--password',
            'the boss passphrase 1',
          ],
          env,
        );

        assert.deepEqual(
          await ok(
            [
              'user',
              'update',
              ...at,
              '--first-name',
              'Olive',
              '--last-name',
              'Perez',
              '--phone',
              '555-0100',
              '--time-zone',
              'Central Time (US & Canada)',
            ],
            env,
          ),
          {
            id: 1,
            company_id: 1,
            role: 'fleet_user',
            status: 'active',
            email: 'ops@acme.test',
            username: null,
            first_name: 'Olive',
            last_name: 'Perez',
          },
        );
        const shown = (await ok(['user', 'show', ...at], env)) as Json;
        assert.deepEqual([shown.phone, shown.time_zone], ['555-0100', 'Central Time (US & Canada)']);
        assert.equal(
          await human(['user', 'update', ...at, '--role', 'admin'], env),
          'Updated admin 1 Olive Perez <ops@acme.test> (active)\n',
        );

        // The service's rules: a taken email, an unknown time zone, another company's user.
        assert.equal(
          await refused(['user', 'update', ...at, '--email', 'BOSS@acme.test'], env),
          'email "boss@acme.test" is already taken',
        );
        assert.match(
          await refused(['user', 'update', ...at, '--time-zone', 'Mars'], env),
          /^time_zone must be one of: /,
        );
        assert.equal(
          await refused(['user', 'update', '--company', '1', '--id', '9', '--first-name', 'X'], env),
          'user 9 not found',
        );

        // Passwords: the policy's refusals, then a new one from --password and one piped on standard input.
        assert.equal(
          await refused(['user', 'set-password', ...at, '--password', 'short'], env),
          'password must be at least 15 characters long (it has 5)',
        );
        assert.equal(
          await refused(['user', 'set-password', ...at, '--password', 'passwordpassword'], env),
          'password is too common: it is on a list of often-used passwords; choose another',
        );
        assert.equal(
          await refused(['user', 'set-password', ...at, '--password', 'my ops@acme.test phrase'], env),
          "password must not contain the account's email address or user name",
        );
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'first passphrase of ops'), true);
        assert.deepEqual(await ok(['user', 'set-password', ...at, '--password', 'second passphrase of ops'], env), {
          id: 1,
          company_id: 1,
          password_set: true,
        });
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'first passphrase of ops'), false);
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'second passphrase of ops'), true);
        assert.equal(
          await human(['user', 'set-password', ...at], env, { stdin: 'third passphrase of ops\n' }),
          'Set a new password for admin 1 Olive Perez <ops@acme.test>\n',
        );
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'third passphrase of ops'), true);

        // Deactivated: no sign-in, listed under its status; update --status active undoes it.
        assert.equal(
          await human(['user', 'deactivate', ...at], env),
          'Deactivated admin 1 Olive Perez <ops@acme.test>\n',
        );
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'third passphrase of ops'), false);
        assert.deepEqual(
          ((await ok(['user', 'list', '--company', '1', '--status', 'deactivated'], env)) as Json).users.map(
            (u: Json) => u.id,
          ),
          [1],
        );
        assert.equal(((await ok(['user', 'update', ...at, '--status', 'active'], env)) as Json).status, 'active');
        assert.equal(await signsIn(database.url, 'ops@acme.test', 'third passphrase of ops'), true);

        // Each change is a `user_upserted` event, as through PUT /v1/users/:id; refusals are none.
        assert.deepEqual(await events(database.url, 'user', 1), [
          'user_upserted created',
          'user_upserted updated',
          'user_upserted updated',
          'user_upserted updated',
          'user_upserted updated',
          'user_upserted updated',
          'user_upserted updated',
        ]);
      } finally {
        await database.drop();
      }
    });

    it('updates a vehicle and deactivates it', async () => {
      const database = await databaseFor(dialect, 'vehicles');
      const env = { DATABASE_URL: database.url };
      const at = ['--company', '1', '--id', '2'];
      try {
        await ok(['company', 'create', '--name', 'Acme Freight'], env);
        await ok(['company', 'create', '--name', 'Beta Haulage'], env);
        await ok(['vehicle', 'create', '--company', '1', '--number', 'T-1'], env);
        await ok(['vehicle', 'create', '--company', '1', '--number', 'T-2'], env);

        assert.deepEqual(
          await ok(
            [
              'vehicle',
              'update',
              ...at,
              '--number',
              'T-20',
              '--vin',
              '1FUJGLDR5CLBP8834',
              '--make',
              'Freightliner',
              '--year',
              '2012',
              '--notes',
              'spare tractor',
              '--license-plate-number',
              'ABC 123',
              '--license-plate-state',
              'TX',
            ],
            env,
          ),
          {
            id: 2,
            company_id: 1,
            number: 'T-20',
            status: 'active',
            vin: '1FUJGLDR5CLBP8834',
            make: 'Freightliner',
            model: null,
            year: '2012',
          },
        );
        const v = (await ok(['vehicle', 'show', ...at], env)) as Json;
        assert.deepEqual([v.notes, v.license_plate_number, v.license_plate_state], ['spare tractor', 'ABC 123', 'TX']);
        // Numbers are unique within a company; another company's vehicle is not found through this one.
        assert.equal(
          await refused(['vehicle', 'update', ...at, '--number', 'T-1'], env),
          'number "T-1" is already taken',
        );
        assert.equal(
          await refused(['vehicle', 'update', '--company', '2', '--id', '2', '--number', 'X'], env),
          'vehicle 2 not found',
        );

        assert.equal(await human(['vehicle', 'deactivate', ...at], env), 'Deactivated vehicle 2 "T-20"\n');
        assert.equal(((await ok(['vehicle', 'show', ...at], env)) as Json).status, 'deactivated');
        assert.deepEqual(
          ((await ok(['vehicle', 'list', '--company', '1', '--status', 'active'], env)) as Json).vehicles.map(
            (x: Json) => x.number,
          ),
          ['T-1'],
        );
        assert.equal(
          await human(['vehicle', 'update', ...at, '--status', 'active'], env),
          'Updated vehicle 2 "T-20" (active)\n',
        );

        assert.deepEqual(await events(database.url, 'vehicle', 2), [
          'vehicle_upserted created',
          'vehicle_upserted updated',
          'vehicle_upserted updated',
          'vehicle_upserted updated',
        ]);
      } finally {
        await database.drop();
      }
    });
  });
}

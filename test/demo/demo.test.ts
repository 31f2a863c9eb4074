/** The demo fleet: its pure generator, and seeding it into a real database of each dialect. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { openDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { verifyPassword } from '../../src/auth/secrets.js';
import { TIME_ZONES } from '../../src/core/time-zone.js';
import { demoFleet, DEMO_SEED } from '../../src/demo/fleet.js';
import { demoBanner, seedDemo } from '../../src/demo/seed.js';
import { Prng, vinCheckDigit } from '../../src/demo/random.js';
import { eachDialect, freshDatabase } from '../helper.js';

describe('demo fleet generator', () => {
  it('is deterministic for a seed and year, and differs for another seed', () => {
    assert.deepEqual(demoFleet(DEMO_SEED, 2025), demoFleet(DEMO_SEED, 2025));
    assert.notDeepEqual(demoFleet(DEMO_SEED + 1, 2025).vehicles, demoFleet(DEMO_SEED, 2025).vehicles);
  });

  it('has 1 admin, 2 fleet users, 40 drivers, 35 vehicles and 6 groups, two of them nested', () => {
    const f = demoFleet();
    const roles = f.users.map((u) => u.role);
    assert.equal(roles.filter((r) => r === 'admin').length, 1);
    assert.equal(roles.filter((r) => r === 'fleet_user').length, 2);
    assert.equal(roles.filter((r) => r === 'driver').length, 40);
    assert.equal(f.vehicles.length, 35);
    assert.equal(f.groups.length, 6);
    assert.deepEqual(
      f.groups.filter((g) => g.parent).map((g) => g.name),
      ['Chicago Yard', 'Phoenix Yard'],
    );
  });

  it('gives unique sign-in names, realistic driver fields and valid VINs', () => {
    const f = demoFleet();
    const emails = f.users.map((u) => u.email).filter(Boolean);
    const usernames = f.users.map((u) => u.username).filter(Boolean);
    assert.equal(new Set(emails).size, emails.length);
    assert.equal(new Set(usernames).size, usernames.length);
    for (const d of f.users.filter((u) => u.role === 'driver')) {
      assert.ok(d.username && /^[a-z]+\d*$/.test(d.username), d.username ?? 'no username');
      assert.match(d.driver_company_id ?? '', /^DFL-\d{4}$/);
      assert.match(d.drivers_license_number ?? '', /^[A-Z0-9]{7,13}$/);
      assert.match(d.drivers_license_state ?? '', /^[A-Z]{2}$/);
      assert.ok(['70_8', '60_7'].includes(d.cycle ?? ''), String(d.cycle));
      assert.ok(d.time_zone in TIME_ZONES, d.time_zone);
      assert.equal(d.carrier_name, 'Demo Freight Lines');
      assert.match(d.joined_at ?? '', /^\d{4}-\d{2}-\d{2}$/);
    }
    const numbers = f.vehicles.map((v) => v.number);
    assert.equal(new Set(numbers).size, numbers.length);
    assert.equal(numbers[0], 'T-101');
    for (const v of f.vehicles) {
      assert.match(v.vin, /^[A-HJ-NPR-Z0-9]{17}$/);
      assert.equal(v.vin[8], vinCheckDigit(v.vin), v.vin);
      assert.match(v.year, /^20\d\d$/);
      assert.equal(v.fuel_type, 'diesel');
      assert.ok(['Freightliner', 'Kenworth', 'Peterbilt', 'Volvo', 'International'].includes(v.make));
    }
    assert.equal(f.vehicles.filter((v) => v.permanent_driver).length, 30);
  });

  it('computes VIN check digits as 49 CFR 565 does', () => {
    assert.equal(vinCheckDigit('1M8GDM9AXKP042788'), 'X'); // the standard's worked example
    assert.equal(vinCheckDigit('11111111111111111'), '1');
  });

  it('Prng is repeatable', () => {
    const a = new Prng(7);
    const b = new Prng(7);
    const xs = Array.from({ length: 5 }, () => a.next());
    assert.deepEqual(
      xs,
      Array.from({ length: 5 }, () => b.next()),
    );
    assert.ok(xs.every((x) => x >= 0 && x < 1));
  });
});

async function count(
  db: Db,
  table: 'companies' | 'users' | 'vehicles' | 'groups' | 'group_users' | 'group_vehicles' | 'api_keys',
) {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

eachDialect('demo seed', (dialect) => {
  it('seeds an empty database with the fleet and an API key that works, and never seeds twice', async () => {
    const database = await freshDatabase(dialect);
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    const db = openDb(config.databaseUrl, { poolSize: 4 });
    let app: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      app = await buildApp(config, { db });
      const r = await seedDemo(db, { password: 'demo-pass-1' });
      assert.equal(r.created, true);
      if (!r.created) return;
      assert.deepEqual(r.company, { id: 1, company_code: 'FP0000001', name: 'Demo Freight Lines' });
      assert.deepEqual(r.counts, { admins: 1, fleet_users: 2, drivers: 40, vehicles: 35, groups: 6 });
      assert.equal(r.adminEmail, 'admin@demo.fleet');
      assert.match(r.apiKey.api_key, /^fk_[A-Za-z0-9_-]{43}$/);

      assert.equal(await count(db, 'companies'), 1);
      assert.equal(await count(db, 'users'), 43);
      assert.equal(await count(db, 'vehicles'), 35);
      assert.equal(await count(db, 'groups'), 6);
      assert.equal(await count(db, 'group_vehicles'), 35);
      // 40 drivers in their terminal's group, the two fleet users in three groups each.
      assert.equal(await count(db, 'group_users'), 46);
      assert.equal(await count(db, 'api_keys'), 1);
      const nested = await db.kysely
        .selectFrom('groups')
        .select(['name', 'parent_id'])
        .where('parent_id', 'is not', null)
        .orderBy('name')
        .execute();
      assert.deepEqual(
        nested.map((g) => g.name),
        ['Chicago Yard', 'Phoenix Yard'],
      );

      const admin = await db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'admin@demo.fleet')
        .executeTakeFirstOrThrow();
      assert.equal(admin.role, 'admin');
      assert.ok(await verifyPassword('demo-pass-1', admin.password_hash));

      // What was stored is what the generator made (the same fleet in every fresh demo).
      const year = new Date().getUTCFullYear();
      const vins = await db.kysely.selectFrom('vehicles').select(['number', 'vin']).orderBy('id').execute();
      assert.deepEqual(
        vins,
        demoFleet(DEMO_SEED, year).vehicles.map((v) => ({ number: v.number, vin: v.vin })),
      );

      const headers = { 'x-api-key': r.apiKey.api_key };
      const vehicles = await app.inject({ method: 'GET', url: '/v1/vehicles?per_page=100', headers });
      assert.equal(vehicles.statusCode, 200);
      const vbody = vehicles.json();
      assert.equal(vbody.pagination.total, 35);
      const withDriver = vbody.vehicles.filter((v: any) => v.vehicle.permanent_driver !== null);
      assert.equal(withDriver.length, 30);
      assert.equal(withDriver[0].vehicle.permanent_driver.role, 'driver');
      const users = await app.inject({ method: 'GET', url: '/v1/users?per_page=1', headers });
      assert.equal(users.statusCode, 200);
      assert.equal(users.json().pagination.total, 43);

      const banner = demoBanner(r, 'http://127.0.0.1:3000');
      assert.ok(banner.includes(`curl -H "X-Api-Key: ${r.apiKey.api_key}" http://127.0.0.1:3000/v1/vehicles`), banner);
      assert.ok(banner.includes('admin@demo.fleet') && banner.includes('demo-pass-1'), banner);

      const again = await seedDemo(db);
      assert.equal(again.created, false);
      assert.deepEqual(again, { created: false, company: r.company, demo: true });
      assert.equal(await count(db, 'companies'), 1);
      assert.equal(await count(db, 'users'), 43);
      assert.equal(await count(db, 'vehicles'), 35);
      assert.equal(await count(db, 'api_keys'), 1);
      assert.match(
        demoBanner(again, 'http://127.0.0.1:3000'),
        /already has the demo company \(company 1 .*Console: +http:\/\/127\.0\.0\.1:3000\/console.*fleet -- demo credentials/s,
      );
    } finally {
      await app?.close();
      await db.close();
      await database.drop();
    }
  });

  it('does not seed a database that already has a company', async () => {
    const database = await freshDatabase(dialect);
    const db = openDb(database.url, { poolSize: 2 });
    try {
      await migrateToLatest(db);
      await db.kysely
        .insertInto('companies')
        .values({
          company_code: 'FP0000001',
          name: 'Real Co',
          dot_ids: '[]',
          cycle: '70_8',
          time_zone: 'UTC',
          exception_24_hour_restart: 0,
          exception_8_hour_break: 0,
          exception_wait_time: 0,
          exception_short_haul: 0,
          exception_ca_farm_school_bus: 0,
          exception_adverse_driving: 0,
          metric_units: 0,
          created_at: '2025-01-01T00:00:00.000Z',
          updated_at: '2025-01-01T00:00:00.000Z',
        })
        .execute();
      const r = await seedDemo(db);
      assert.equal(r.created, false);
      assert.equal(r.company.name, 'Real Co');
      assert.equal(r.created === false && r.demo, false);
      assert.match(
        demoBanner(r, 'http://127.0.0.1:3000'),
        /data the demo did not create \(company \d+ FP0000001 "Real Co"\); nothing was seeded\nand no truck is simulated on it\./,
      );
      assert.equal(await count(db, 'users'), 0);
      assert.equal(await count(db, 'api_keys'), 0);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});

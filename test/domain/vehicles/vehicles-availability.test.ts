/**
 * A vehicle's availability (docs/vehicles.md): the nested availability_details of the real API and the
 * flat availability_status, answered in full on every vehicle; a change stamps who and when, a PUT
 * that changes nothing does not; a contradiction is a 400 that changes nothing. The backfill of
 * migration 0019 gives older rows an availability.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Migrator } from 'kysely';
import { eachDialect, freshDatabase, useApp, type TestApp } from '../../helper.js';
import { DATETIME, assertError, createUser, createVehicle } from '../../http/fixtures.js';
import { plainVehicle, summaryOf } from './vehicle-bodies.js';
import { MIGRATIONS, migrateToLatest } from '../../../src/storage/migrate.js';
import { openDb } from '../../../src/storage/db.js';

eachDialect('vehicles: availability', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let admin: any;
  let boss: any;

  before(async () => {
    t = await getApp();
    admin = await createUser(t, { role: 'admin', first_name: 'Ada', last_name: 'Admin' });
    boss = await createUser(t, { role: 'admin', first_name: 'Bo', last_name: 'Boss' });
  });

  const put = (id: number, payload: unknown, headers: Record<string, string> = {}) =>
    t.call({ method: 'PUT', url: `/v1/vehicles/${id}`, payload: payload as any, headers });

  test('a new vehicle is in service, stamped at its creation by the acting admin', async () => {
    const v = await createVehicle(t, { number: 'AV-NEW' });
    assert.deepEqual(
      v,
      plainVehicle(v, {
        availability_details: {
          availability_status: 'in_service',
          out_of_service_reason: null,
          updated_at: v.created_at,
          additional_note: null,
          custom_driver_app_warning_prompt: null,
          updated_by_user: summaryOf(admin),
        },
      }),
    );
    assert.match(v.created_at, DATETIME);
  });

  test('POST may create a vehicle out of service (nested form)', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: {
        number: 'AV-SHOP',
        availability_details: { availability_status: 'out_of_service', out_of_service_reason: 'Brakes' },
      },
    });
    assert.equal(res.status, 201, res.raw);
    const v = res.body.vehicle;
    assert.deepEqual(v.availability_details, {
      availability_status: 'out_of_service',
      out_of_service_reason: 'Brakes',
      updated_at: v.created_at,
      additional_note: null,
      custom_driver_app_warning_prompt: null,
      updated_by_user: summaryOf(admin),
    });
  });

  test('PUT availability_details (the documented nested form) marks it out of service, in full', async () => {
    const v = await createVehicle(t, { number: 'AV-1' });
    const res = await put(
      v.id,
      {
        availability_details: {
          availability_status: 'out_of_service',
          out_of_service_reason: 'Vehicle Maintenance',
          additional_note: 'This vehicle is scheduled for maintenance',
          custom_driver_app_warning_prompt: "Please don't operate",
        },
      },
      { 'X-User-Id': String(boss.id) },
    );
    assert.equal(res.status, 200, res.raw);
    const got = res.body.vehicle;
    assert.match(got.availability_details.updated_at, DATETIME);
    assert.deepEqual(res.body, {
      vehicle: plainVehicle(v, {
        updated_at: got.updated_at,
        availability_details: {
          availability_status: 'out_of_service',
          out_of_service_reason: 'Vehicle Maintenance',
          updated_at: got.availability_details.updated_at,
          additional_note: 'This vehicle is scheduled for maintenance',
          custom_driver_app_warning_prompt: "Please don't operate",
          updated_by_user: summaryOf(boss),
        },
      }),
    });
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body, res.body);
    const list = await t.call({ method: 'GET', url: '/v1/vehicles?per_page=100' });
    assert.deepEqual(list.body.vehicles.find((x: any) => x.vehicle.id === v.id).vehicle, got);
  });

  test('a nested change without a status changes only what it names; the same values again change nothing', async () => {
    const v = await createVehicle(t, { number: 'AV-2' });
    const first = (
      await put(v.id, {
        availability_details: { availability_status: 'out_of_service', out_of_service_reason: 'Tires' },
      })
    ).body.vehicle;
    const res = await put(
      v.id,
      { availability_details: { additional_note: '  back Friday  ' } },
      { 'X-User-Id': String(boss.id) },
    );
    assert.equal(res.status, 200, res.raw);
    const ad = res.body.vehicle.availability_details;
    assert.deepEqual(ad, {
      availability_status: 'out_of_service',
      out_of_service_reason: 'Tires',
      updated_at: ad.updated_at,
      additional_note: 'back Friday',
      custom_driver_app_warning_prompt: null,
      updated_by_user: summaryOf(boss),
    });
    assert.ok(ad.updated_at >= first.availability_details.updated_at);
    // Sent back as read: nothing changes, not even who changed it last.
    const again = await put(v.id, {
      availability_details: {
        availability_status: 'out_of_service',
        out_of_service_reason: 'Tires',
        additional_note: 'back Friday',
        custom_driver_app_warning_prompt: null,
      },
    });
    assert.deepEqual(again.body.vehicle.availability_details, ad);
  });

  test('the flat availability_status still works; back in service drops the reason and the prompt', async () => {
    const v = await createVehicle(t, { number: 'AV-3' });
    await put(v.id, {
      availability_details: {
        availability_status: 'out_of_service',
        out_of_service_reason: 'Crash',
        additional_note: 'n',
        custom_driver_app_warning_prompt: 'p',
      },
    });
    const res = await put(v.id, { availability_status: 'in_service' }, { 'X-User-Id': String(boss.id) });
    assert.equal(res.status, 200, res.raw);
    const ad = res.body.vehicle.availability_details;
    assert.deepEqual(ad, {
      availability_status: 'in_service',
      out_of_service_reason: null,
      updated_at: ad.updated_at,
      additional_note: null,
      custom_driver_app_warning_prompt: null,
      updated_by_user: summaryOf(boss),
    });
    // Read-modify-write: the old reason sent back with in_service is dropped, the note kept.
    const back = await put(v.id, {
      availability_details: {
        availability_status: 'in_service',
        out_of_service_reason: 'Crash',
        additional_note: 'fixed',
      },
    });
    assert.equal(back.body.vehicle.availability_details.out_of_service_reason, null);
    assert.equal(back.body.vehicle.availability_details.additional_note, 'fixed');
  });

  test('flat and nested statuses that disagree, or an unknown status → 400, nothing changes', async () => {
    const v = await createVehicle(t, { number: 'AV-4' });
    const before = (await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body;
    assertError(
      await put(v.id, {
        availability_status: 'in_service',
        availability_details: { availability_status: 'out_of_service' },
      }),
      400,
      'availability_status "in_service" contradicts availability_details.availability_status "out_of_service"',
    );
    assertError(
      await put(v.id, { availability_details: { availability_status: 'broken' } }),
      400,
      /availability_status/,
    );
    assertError(
      await put(v.id, { availability_details: { out_of_service_reason: 'x'.repeat(256) } }),
      400,
      /out_of_service_reason/,
    );
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body, before);
  });

  test('migration 0019 gives a vehicle stored without an availability one: in service since its creation', async () => {
    const fresh = await freshDatabase(dialect);
    const db = openDb(fresh.url);
    try {
      const provider = {
        getMigrations: async () =>
          Object.fromEntries(MIGRATIONS.map(([n, m]) => [n, { up: (k: any) => m.up(k, db.kind) }])),
      };
      const result = await new Migrator({ db: db.kysely, provider }).migrateTo('0018_geofence_holes');
      assert.equal(result.error, undefined);
      const now = '2026-01-05T10:00:00.000Z';
      const company = await db.kysely
        .insertInto('companies')
        .values({ company_code: 'KT-OLD', name: 'Old', created_at: now, updated_at: now } as any)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.kysely
        .insertInto('vehicles')
        .values({ company_id: company.id, number: 'OLD-1', created_at: now, updated_at: now } as any)
        .execute();
      assert.deepEqual(
        await migrateToLatest(db),
        MIGRATIONS.slice(MIGRATIONS.findIndex(([n]) => n === '0019_vehicle_availability')).map(([n]) => n),
      );
      const row = await db.kysely
        .selectFrom('vehicles')
        .select(['availability_status', 'availability_updated_at', 'out_of_service_reason'])
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, {
        availability_status: 'in_service',
        availability_updated_at: now,
        out_of_service_reason: null,
      });
    } finally {
      await db.close();
      await fresh.drop();
    }
  });
});

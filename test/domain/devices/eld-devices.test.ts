/**
 * ELD devices: provisioning with a credential shown once, device authentication, revocation,
 * GET /v1/eld_devices with its filters, and the vehicle's eld_device (docs/reference/wire.md §4.1, §4.3, §4.11).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertError, assertKeySet, assertList, createVehicle } from '../../http/fixtures.js';
import {
  authenticateDevice,
  deviceByIdentifier,
  provisionDevice,
  revokeDevice,
} from '../../../src/domain/devices/service.js';
import { digest } from '../../../src/auth/secrets.js';
import { AppError } from '../../../src/core/errors.js';
import { VEHICLE_SUMMARY_KEYS, createAsset, provision } from '../../http/fleet-record-fixtures.js';

async function refused(p: Promise<unknown>, status: number, message: string) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, status);
    assert.equal(err.message, message);
    return true;
  });
}

eachDialect('ELD devices', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let v1: any;
  let v2: any;
  let v3: any;
  let d1: Awaited<ReturnType<typeof provision>>;
  let d2: Awaited<ReturnType<typeof provision>>;
  const sn = (n: number) => `${dialect.toUpperCase()}-SN-${n}`;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    v1 = await createVehicle(t, {
      number: 'E-101',
      year: '2020',
      make: 'Kenworth',
      model: 'T680',
      vin: '1XKYD49X0LJ000001',
    });
    v2 = await createVehicle(t, { number: 'E-102' });
    v3 = await createVehicle(t, { number: 'E-103' });
    d1 = await provision(t, v1.id, sn(1), undefined, 'lbb-3.6ca');
    d2 = await provision(t, v2.id, sn(2));
  });

  test('provisioning returns the credential once and stores only its digest', async () => {
    assert.match(d1.device_token, /^fd_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...d1, device_token: 'x' },
      {
        id: d1.id,
        company_id: t.company.id,
        kind: 'eld',
        vehicle_id: v1.id,
        asset_id: null,
        identifier: sn(1),
        model: 'lbb-3.6ca',
        device_token: 'x',
      },
    );
    assert.equal(d2.model, 'eld-1', 'the default model');
    const row = await t.db.kysely.selectFrom('devices').selectAll().where('id', '=', d1.id).executeTakeFirstOrThrow();
    assert.equal(row.credential_digest, digest(d1.device_token));
    assert.ok(!JSON.stringify(row).includes(d1.device_token), 'the credential itself is not stored');
  });

  test('authenticateDevice: the credential names the device, its company and vehicle; anything else is null', async () => {
    assert.deepEqual(await authenticateDevice(t.db, d1.device_token), {
      deviceId: d1.id,
      companyId: t.company.id,
      kind: 'eld',
      vehicleId: v1.id,
      assetId: null,
      identifier: sn(1),
    });
    assert.deepEqual(await authenticateDevice(t.db, ` ${d2.device_token}\n`), {
      deviceId: d2.id,
      companyId: t.company.id,
      kind: 'eld',
      vehicleId: v2.id,
      assetId: null,
      identifier: sn(2),
    });
    for (const bad of ['', 'fd_nope', d1.device_token.slice(0, -1), `${d1.device_token}x`])
      assert.equal(await authenticateDevice(t.db, bad), null, bad);
    assert.equal((await deviceByIdentifier(t.db, sn(2)))?.deviceId, d2.id);
    assert.equal(await deviceByIdentifier(t.db, 'UNKNOWN'), null);
  });

  test('GET /v1/eld_devices: eld_devices[].eld_device with the bound vehicle, id order', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/eld_devices' });
    const items = assertList(res, 'eld_devices', 'eld_device');
    assert.deepEqual(
      items.map((d) => d.id),
      [d1.id, d2.id],
    );
    for (const d of items) {
      assertKeySet(d, ['id', 'identifier', 'model', 'vehicle']);
      assertKeySet(d.vehicle, VEHICLE_SUMMARY_KEYS, 'vehicle');
    }
    assert.deepEqual(items[0], {
      id: d1.id,
      identifier: sn(1),
      model: 'lbb-3.6ca',
      vehicle: {
        id: v1.id,
        number: 'E-101',
        year: '2020',
        make: 'Kenworth',
        model: 'T680',
        vin: '1XKYD49X0LJ000001',
        metric_units: false,
      },
    });
    assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 1, total: 2 });
  });

  test('filters identifiers[] and vehicle_ids[] in every array syntax, alone and together', async () => {
    const cases: Array<[string, number[]]> = [
      [`identifiers[]=${sn(1)}`, [d1.id]],
      [`identifiers=${sn(2)}`, [d2.id]],
      [`identifiers=${sn(1)},${sn(2)}`, [d1.id, d2.id]],
      [`identifiers[0]=${sn(2)}&identifiers[1]=NOPE`, [d2.id]],
      [`vehicle_ids[]=${v2.id}`, [d2.id]],
      [`vehicle_ids=${v1.id},${v2.id}`, [d1.id, d2.id]],
      [`vehicle_ids=${v3.id}`, []],
      [`vehicle_ids=${v1.id}&identifiers=${sn(2)}`, []],
      [`vehicle_ids=${v2.id}&identifiers=${sn(2)}`, [d2.id]],
      ['identifiers=UNKNOWN', []],
    ];
    for (const [q, ids] of cases) {
      const res = await t.call({ method: 'GET', url: `/v1/eld_devices?${q}` });
      assert.deepEqual(
        assertList(res, 'eld_devices', 'eld_device').map((d) => d.id),
        ids,
        q,
      );
      assert.equal(res.body.pagination.total, ids.length, q);
    }
    assertError(
      await t.call({ method: 'GET', url: '/v1/eld_devices?vehicle_ids=abc' }),
      400,
      'vehicle_ids[0] must be an integer',
    );
  });

  test("the vehicle's eld_device is its live ELD, on the single object and in the list", async () => {
    const one = (await t.call({ method: 'GET', url: `/v1/vehicles/${v1.id}` })).body.vehicle;
    assert.deepEqual(one.eld_device, { id: d1.id, identifier: sn(1), model: 'lbb-3.6ca' });
    const list = (await t.call({ method: 'GET', url: '/v1/vehicles' })).body.vehicles.map((w: any) => w.vehicle);
    assert.deepEqual(
      list.map((v: any) => v.eld_device?.id ?? null),
      [d1.id, d2.id, null],
    );
  });

  test('bad provisioning is refused with a precise message and stores nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('devices')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const tenant = { companyId: t.company.id };
    const theirVehicle = await createVehicle(t, {}, other);
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'NEW-1', vehicleId: 987654 }),
      404,
      'vehicle 987654 not found',
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'NEW-1', vehicleId: theirVehicle.id }),
      404,
      `vehicle ${theirVehicle.id} not found`,
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: sn(1), vehicleId: v3.id }),
      400,
      `identifier "${sn(1)}" is already taken`,
    );
    await refused(
      provisionDevice(t.db, { companyId: other.id }, { identifier: sn(1), vehicleId: theirVehicle.id }),
      400,
      `identifier "${sn(1)}" is already taken`,
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'NEW-1', vehicleId: v1.id }),
      400,
      `vehicle ${v1.id} already has ELD device ${d1.id} (${sn(1)}); revoke it first`,
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'bad serial!', vehicleId: v3.id }),
      400,
      'identifier must be 1 to 64 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'NEW-1' }),
      400,
      'vehicle or asset: give exactly one of them',
    );
    await refused(
      provisionDevice(t.db, { companyId: 987654 }, { identifier: 'NEW-1', vehicleId: v3.id }),
      404,
      'company 987654 not found',
    );
    await refused(
      provisionDevice(t.db, tenant, { identifier: 'NEW-1', vehicleId: v3.id, model: ' ' }),
      400,
      'model must be 1 to 64 characters long',
    );
    assert.equal(await count(), before);
  });

  test('asset gateways bind to assets and are not ELDs', async () => {
    const asset = await createAsset(t);
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `${sn(9)}-GW`, assetId: asset.id },
    );
    assert.equal(gw.kind, 'asset_gateway');
    assert.equal(gw.model, 'asset-gateway-1');
    assert.deepEqual(await authenticateDevice(t.db, gw.device_token), {
      deviceId: gw.id,
      companyId: t.company.id,
      kind: 'asset_gateway',
      vehicleId: null,
      assetId: asset.id,
      identifier: `${sn(9)}-GW`,
    });
    const ids = assertList(await t.call({ method: 'GET', url: '/v1/eld_devices' }), 'eld_devices', 'eld_device').map(
      (d) => d.id,
    );
    assert.ok(!ids.includes(gw.id));
    await refused(
      provisionDevice(t.db, { companyId: t.company.id }, { identifier: 'GW-2', assetId: asset.id }),
      400,
      `asset ${asset.id} already has gateway ${gw.id} (${sn(9)}-GW); revoke it first`,
    );
  });

  test('revoking: the credential stops working, the device leaves the lists, the serial and vehicle are free again', async () => {
    const spare = await provision(t, v3.id, sn(3));
    await revokeDevice(t.db, { companyId: t.company.id }, spare.id);
    await revokeDevice(t.db, { companyId: t.company.id }, spare.id); // twice is fine
    assert.equal(await authenticateDevice(t.db, spare.device_token), null);
    assert.equal(await deviceByIdentifier(t.db, sn(3)), null);
    assert.equal((await t.call({ method: 'GET', url: `/v1/vehicles/${v3.id}` })).body.vehicle.eld_device, null);
    assert.deepEqual(
      assertList(
        await t.call({ method: 'GET', url: `/v1/eld_devices?vehicle_ids=${v3.id}` }),
        'eld_devices',
        'eld_device',
      ),
      [],
    );
    const again = await provision(t, v3.id, sn(3));
    assert.notEqual(again.id, spare.id);
    assert.equal((await authenticateDevice(t.db, again.device_token))?.deviceId, again.id);
    await refused(revokeDevice(t.db, { companyId: other.id }, again.id), 404, `device ${again.id} not found`);
  });

  test("tenant isolation: another company lists none of these devices and its vehicles' eld_device is its own", async () => {
    const res = await t.call({ method: 'GET', url: `/v1/eld_devices?vehicle_ids=${v1.id}`, as: other });
    assert.deepEqual(assertList(res, 'eld_devices', 'eld_device'), []);
    assert.equal(res.body.pagination.total, 0);
    const theirVehicle = await createVehicle(t, {}, other);
    const theirs = await provision(t, theirVehicle.id, sn(7), other);
    const list = assertList(
      await t.call({ method: 'GET', url: '/v1/eld_devices', as: other }),
      'eld_devices',
      'eld_device',
    );
    assert.deepEqual(
      list.map((d) => d.id),
      [theirs.id],
    );
    assert.deepEqual(
      assertList(
        await t.call({ method: 'GET', url: `/v1/eld_devices?identifiers=${sn(7)}` }),
        'eld_devices',
        'eld_device',
      ),
      [],
    );
  });
});

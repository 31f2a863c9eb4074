/**
 * `vehicle_upserted` announces availability and external-id changes (docs/vehicles.md): the delivery is
 * the vehicle as it was at each event, with its full availability_details and its external ids of that
 * moment, even when they changed again before the worker ran.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { plainVehicle } from '../../domain/vehicles/vehicle-bodies.js';
import { registerHook, useHookSuite, type HookApp, type Receiver } from './receiver.js';

eachDialect('webhooks: vehicle_upserted', (dialect) => {
  const suite = useHookSuite(dialect);
  let t: HookApp;
  let r: Receiver;
  before(() => void ({ t, r } = suite));

  it('an availability change and an external-id change each arrive, as they were at their event', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    const created = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: { number: 'WH-1', external_ids_attributes: [{ external_id: '7', integration_name: 'tms' }] },
    });
    assert.equal(created.status, 201, created.raw);
    const v = created.body.vehicle;
    const out = await t.call({
      method: 'PUT',
      url: `/v1/vehicles/${v.id}`,
      payload: {
        availability_details: {
          availability_status: 'out_of_service',
          out_of_service_reason: 'Inspection',
          additional_note: 'Bay 3',
        },
      },
    });
    assert.equal(out.status, 200, out.raw);
    const cleared = await t.call({
      method: 'PUT',
      url: `/v1/vehicles/${v.id}`,
      payload: { external_ids_attributes: [] },
    });
    assert.equal(cleared.status, 200, cleared.raw);
    await t.run();
    const got = r.deliveries(hook.path).map((d) => d.body);
    const o = out.body.vehicle;
    assert.deepEqual(got, [
      {
        action: 'vehicle_upserted',
        trigger: 'created',
        ...plainVehicle(v, { external_ids: [{ external_id: '7', integration_name: 'tms' }] }),
      },
      {
        action: 'vehicle_upserted',
        trigger: 'updated',
        ...plainVehicle(v, {
          updated_at: o.updated_at,
          availability_details: {
            availability_status: 'out_of_service',
            out_of_service_reason: 'Inspection',
            updated_at: o.availability_details.updated_at,
            additional_note: 'Bay 3',
            custom_driver_app_warning_prompt: null,
            updated_by_user: null,
          },
          external_ids: [{ external_id: '7', integration_name: 'tms' }],
        }),
      },
      { action: 'vehicle_upserted', trigger: 'updated', ...cleared.body.vehicle },
    ]);
    assert.deepEqual(cleared.body.vehicle.external_ids, []);
  });
});

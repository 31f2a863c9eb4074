/**
 * The fault code object on the wire (docs/telemetry.md, Fault codes): `source_address` is text, as the
 * real API sends it ("2024"), null for OBD-II; `network` names the vehicle network the device's record
 * said (`j1939`, `obdii`, `j1708`); `ftb` is null. Exact bodies for one code of each network.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { assertList } from '../http/fixtures.js';
import { at, engine, useRigApp, send, settle, track, type Rig } from './fixtures.js';

eachDialect('fault codes on the wire', (dialect) => {
  const setup = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => ({ t, v } = await setup()));

  test('a J1939, an OBD-II and a J1708 code, each with its network and a text source address', async () => {
    const res = await send(t, v, [
      engine(0, 'on'),
      ...track({ fromS: 5, toS: 60, kph: 0 }),
      { type: 'fault', time: at(10), protocol: 'j1939', spn: 110, fmi: 0, source_address: 0, occurrence_count: 3 },
      { type: 'fault', time: at(11), protocol: 'obd2', code: 'p0420' },
      { type: 'fault', time: at(12), protocol: 'j1708', mid: 128, pid: 100, fmi: 1 },
    ]);
    assert.equal(res.rejected, 0, JSON.stringify(res.results));
    await settle(t);
    const faults = assertList(
      await t.call({ method: 'GET', url: `/v1/fault_codes?vehicle_ids=${v.vehicle.id}&per_page=100` }),
      'fault_codes',
      'fault_code',
    );
    const vehicle = {
      id: v.vehicle.id,
      number: v.vehicle.number,
      year: '2022',
      make: 'Freightliner',
      model: 'Cascadia',
      vin: v.vehicle.vin,
      metric_units: false,
    };
    const eld_device = { id: v.device.id, identifier: v.device.identifier, model: faults[0].eld_device.model };
    const seen = (s: number) => ({
      first_observed_at: at(s).replace('.000', ''),
      last_observed_at: at(s).replace('.000', ''),
    });
    const rest = {
      status: 'open',
      num_observations: 1,
      sum_num_observations: 1,
      is_sid: false,
      dtc_status: 'active',
      dtc_severity: null,
      functional_grp_id: null,
      ftb: null,
      vehicle,
      eld_device,
    };
    assert.deepEqual(
      faults,
      [
        {
          id: faults[0].id,
          code: '110',
          code_label: 'SPN 110 FMI 0',
          code_description: 'Engine Coolant Temperature',
          source_address_label: 'SA 0',
          source_address_name: 'Engine #1',
          source_address: '0',
          ...seen(10),
          type: 'intermittent',
          fmi: 0,
          fmi_description: 'Data valid but above normal range, most severe',
          occurrence_count: 3,
          ...rest,
          network: 'j1939',
        },
        {
          id: faults[1].id,
          code: 'P0420',
          code_label: 'P0420',
          code_description: 'Catalyst System Efficiency Below Threshold (Bank 1)',
          source_address_label: null,
          source_address_name: null,
          source_address: null,
          ...seen(11),
          type: 'constant',
          fmi: null,
          fmi_description: null,
          occurrence_count: 1,
          ...rest,
          network: 'obdii',
        },
        {
          id: faults[2].id,
          code: '100',
          code_label: 'PID 100 FMI 1',
          code_description: 'PID 100',
          source_address_label: 'MID 128',
          source_address_name: 'MID 128',
          source_address: '128',
          ...seen(12),
          type: 'constant',
          fmi: 1,
          fmi_description: 'Data valid but below normal range, most severe',
          occurrence_count: 1,
          ...rest,
          network: 'j1708',
        },
      ].map((f) => Object.fromEntries(Object.keys(faults[0]).map((k) => [k, (f as any)[k]]))),
    );
    assert.deepEqual(
      Object.keys(faults[0]).slice(-3),
      ['vehicle', 'eld_device', 'network'],
      'network last, as in the documented sample',
    );
  });
});

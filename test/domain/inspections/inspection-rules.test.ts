/**
 * The DVIR rules (src/domain/inspections/status.ts), table-driven, and the create service the
 * telemetry ingestion calls: its refusals store nothing and record no event.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { createUser, createVehicle } from '../../http/fixtures.js';
import { planDefectChanges, reportStatus } from '../../../src/domain/inspections/status.js';
import { createInspectionReport } from '../../../src/domain/inspections/create.js';
import { AppError } from '../../../src/core/errors.js';

describe('inspection report rules', () => {
  test('report status from its defects', () => {
    const cases: Array<[string[], string]> = [
      [[], 'satisfactory'],
      [['open'], 'unknown'],
      [['repaired', 'open'], 'unknown'],
      [['repaired'], 'corrected'],
      [['repaired', 'no_repair_needed'], 'corrected'],
      [['no_repair_needed'], 'harmless'],
      [['no_repair_needed', 'no_repair_needed'], 'harmless'],
    ];
    for (const [defects, status] of cases)
      assert.equal(reportStatus(defects.map((s) => ({ status: s }))), status, defects.join(','));
  });

  test('planned defect changes: entries in order, then the report-level status settles what is open', () => {
    const defects = [
      { id: 1, status: 'open' },
      { id: 2, status: 'open' },
      { id: 3, status: 'repaired' },
    ];
    const cases: Array<
      [Parameters<typeof planDefectChanges>[1], 'corrected' | 'harmless' | undefined, Array<[number, string]>]
    > = [
      [
        [],
        'corrected',
        [
          [1, 'repaired'],
          [2, 'repaired'],
        ],
      ],
      [
        [],
        'harmless',
        [
          [1, 'no_repair_needed'],
          [2, 'no_repair_needed'],
        ],
      ],
      [[{ status: 'repaired', resolved_defects: [1] }], undefined, [[1, 'repaired']]],
      [
        [{ status: 'no_repair_needed', resolved_defects: [1] }],
        'corrected',
        [
          [1, 'no_repair_needed'],
          [2, 'repaired'],
        ],
      ],
      [
        [
          { status: 'repaired', resolved_defects: [1] },
          { status: 'open', resolved_defects: [1] },
        ],
        undefined,
        [],
      ],
      [[{ status: 'open', resolved_defects: [3] }], undefined, [[3, 'open']]],
      [[{ status: 'repaired', resolved_defects: [3] }], undefined, []],
    ];
    for (const [entries, level, expected] of cases) {
      const plan = planDefectChanges(defects, entries, level);
      assert.equal(plan.problem, null);
      assert.deepEqual(
        plan.changed!.map((c) => [c.id, c.to]),
        expected,
        JSON.stringify({ entries, level }),
      );
    }
  });

  test('problems: a defect of another report, a report-level status without defects', () => {
    const unknown = planDefectChanges(
      [{ id: 1, status: 'open' }],
      [{ status: 'repaired', resolved_defects: [1, 9] }],
      undefined,
    );
    assert.deepEqual(unknown.problem, {
      field: 'defect_statuses[0].resolved_defects[1]',
      message: 'defect 9',
      kind: 'not_found',
    });
    const none = planDefectChanges([], [], 'harmless');
    assert.deepEqual(none.problem, {
      field: 'status',
      message: 'cannot be harmless: the report has no defects',
      kind: 'invalid',
    });
  });
});

eachDialect('creating inspection reports', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let driver: any;
  let admin: any;
  let vehicle: any;
  let theirVehicle: any;
  let theirDriver: any;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    driver = await createUser(t);
    admin = await createUser(t, { role: 'admin' });
    vehicle = await createVehicle(t);
    theirVehicle = await createVehicle(t, {}, other);
    theirDriver = await createUser(t, {}, other);
  });

  test('refusals name the field and store nothing', async () => {
    const count = async (table: 'inspection_reports' | 'inspection_defects' | 'domain_events') =>
      Number(
        (
          await t.db.kysely
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const ok = await createInspectionReport(
      t.db,
      { companyId: t.company.id },
      {
        driver_id: driver.id,
        vehicle_id: vehicle.id,
        time: new Date(Date.now() - 60_000).toISOString(),
        external_ids: [{ external_id: 'X', integration_name: 'tms' }],
      },
    );
    const before = await Promise.all([
      count('inspection_reports'),
      count('inspection_defects'),
      count('domain_events'),
    ]);
    const base = { driver_id: driver.id, vehicle_id: vehicle.id, time: new Date(Date.now() - 60_000).toISOString() };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ driver_id: 987654 }, 404, 'driver_id: user 987654 not found'],
      [{ driver_id: admin.id }, 400, `driver_id must name a driver; user ${admin.id} is a admin`],
      [{ vehicle_id: theirVehicle.id }, 404, `vehicle_id: vehicle ${theirVehicle.id} not found`],
      [
        { time: 'yesterday' },
        400,
        'time must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "yesterday"',
      ],
      [
        { time: '2026-02-30T10:00:00Z' },
        400,
        'time must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "2026-02-30T10:00:00Z"',
      ],
      [{ time: new Date(Date.now() + 3_600_000).toISOString() }, 400, 'time must not be in the future'],
      [{ inspection_type: 'mid_trip' }, 400, 'inspection_type must be one of: pre_trip, post_trip, other'],
      [{ odometer: -1 }, 400, 'odometer must be a number of at least 0'],
      [
        {
          defects: [
            { area: 'tractor', category: 'Mirrors' },
            { area: ' ', category: 'Brakes' },
          ],
        },
        400,
        'defects[1].area must not be empty',
      ],
      [{ defects: [{ area: 'tractor', category: '' }] }, 400, 'defects[0].category must not be empty'],
      [
        { external_ids: [{ external_id: 'X', integration_name: 'tms' }] },
        400,
        `external_id "X" of integration "tms" already belongs to inspection report ${ok.id}`,
      ],
      [
        { driver_signed_at: 'now' },
        400,
        'driver_signed_at must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "now"',
      ],
    ];
    for (const [fields, status, message] of cases) {
      await assert.rejects(
        createInspectionReport(t.db, { companyId: t.company.id }, { ...base, ...fields } as never),
        (err: unknown) => {
          assert.ok(err instanceof AppError, String(err));
          assert.equal(`${err.status} ${err.message}`, `${status} ${message}`);
          return true;
        },
      );
    }
    // The other company's driver is not a driver here.
    await assert.rejects(
      createInspectionReport(t.db, { companyId: t.company.id }, { ...base, driver_id: theirDriver.id }),
      /driver_id: user \d+ not found/,
    );
    assert.deepEqual(
      await Promise.all([count('inspection_reports'), count('inspection_defects'), count('domain_events')]),
      before,
    );
  });

  test('a created report records inspection_report_upserted with its defects, in the same transaction', async () => {
    const r = await createInspectionReport(
      t.db,
      { companyId: t.company.id },
      {
        driver_id: driver.id,
        vehicle_id: vehicle.id,
        time: new Date(Date.now() - 60_000).toISOString(),
        defects: [{ area: 'trailer', category: 'Tires', notes: 'low' }],
      },
    );
    const ev = await t.db.kysely
      .selectFrom('domain_events')
      .selectAll()
      .where('subject_type', '=', 'inspection_report')
      .where('subject_id', '=', String(r.id))
      .execute();
    assert.deepEqual(
      ev.map((e) => [e.action, e.trigger, e.company_id]),
      [['inspection_report_upserted', 'created', t.company.id]],
    );
    const data = JSON.parse(ev[0].data);
    assert.equal(data.status, 'unknown');
    assert.deepEqual(
      data.defects.map((d: any) => [d.area, d.category, d.notes, d.status]),
      [['trailer', 'Tires', 'low', 'open']],
    );
  });
});

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp } from '../helper.js';

eachDialect('domain events (outbox)', (dialect) => {
  const app = useApp(dialect);

  it('records user_upserted and vehicle_upserted with their trigger in the same transaction as the change', async () => {
    const t = await app();
    const u = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Ann',
        last_name: 'Lee',
        role: 'driver',
        username: 'ann.outbox',
        password: 'long-enough-passphrase',
      },
    });
    assert.equal(u.status, 201);
    await t.call({ method: 'PUT', url: `/v1/users/${u.body.user.id}`, payload: { last_name: 'Li' } });
    const v = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'OB-1' } });
    assert.equal(v.status, 201);
    const rows = await t.db.kysely
      .selectFrom('domain_events')
      .selectAll()
      .where('company_id', '=', t.company.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.action, r.trigger, r.subject_type, Number(r.subject_id)]),
      [
        ['user_upserted', 'created', 'user', u.body.user.id],
        ['user_upserted', 'updated', 'user', u.body.user.id],
        ['vehicle_upserted', 'created', 'vehicle', v.body.vehicle.id],
      ],
    );
    const snapshot = JSON.parse(rows[1].data);
    assert.equal(snapshot.last_name, 'Li');
    assert.equal('password_hash' in snapshot, false, 'the password hash never leaves in an event');
  });

  it('records nothing when the change is rejected', async () => {
    const t = await app();
    const before = await t.db.kysely.selectFrom('domain_events').select('id').execute();
    const bad = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'OB-1' } });
    assert.equal(bad.status, 400);
    const after = await t.db.kysely.selectFrom('domain_events').select('id').execute();
    assert.equal(after.length, before.length);
  });
});

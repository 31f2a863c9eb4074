/**
 * GET /v1/available_time?per_page=100: the clocks of 100 drivers computed per request from 8 days of
 * stored records each (a 1,000-driver fleet). The 10,000-driver computation is bench/hos.ts.
 */
import { defineScenario } from '../lib/scenario.js';
import { seedHosRecords } from '../hos.js';

export default defineScenario({
  name: 'hos-available-time',
  summary:
    'GET /v1/available_time?per_page=100, drivers 1–100 of 1,000, each with 8 days of records (clocks computed per request)',
  seed: (db, companyId) => seedHosRecords(db, companyId, 1000, Date.now(), 8),
  requests: () => {
    let page = 0;
    return () => ({ path: `/v1/available_time?per_page=100&page_no=${(page++ % 10) + 1}` });
  },
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    const users = res.body.users as Array<{ user: { available_time: { drive: number } } }>;
    if (users.length !== 100) throw new Error(`expected 100 drivers, got ${users.length}`);
    if (!users.every((u) => Number.isInteger(u.user.available_time.drive)))
      throw new Error('a driver without available time');
  },
});

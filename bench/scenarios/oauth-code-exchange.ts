/**
 * POST /oauth/token with grant_type=authorization_code: code exchanges per second. Every request spends
 * a fresh code (seeded in bulk, stored as digests like real ones), with the parameters in the query
 * string as MotiveProvider sends them. Each exchange reads the code and the grant and writes, in one
 * transaction, the consumed code and two tokens. No target: the rate is reported.
 */
import { digest, newSecret } from '../../src/auth/secrets.js';
import { json } from '../../src/storage/values.js';
import { defineScenario } from '../lib/scenario.js';
import { BENCH_REDIRECT, installBenchApp } from './oauth-bearer-vehicle-get.js';

const BATCH = 500;
/** Codes for the warm-up and the measured run at up to this many exchanges per second. */
const MAX_RATE = 3000;

/** Enough codes for every pass (one node, then two; see BENCH_NODES). */
function codesNeeded(): number {
  const secs = Number(process.env.BENCH_DURATION_S || 10) + Number(process.env.BENCH_WARMUP_S || 2) + 5;
  const passes = (process.env.BENCH_NODES || '1,2').split(',').length;
  return Math.min(800_000, Math.max(10_000, secs * MAX_RATE * passes));
}

export default defineScenario({
  name: 'oauth-code-exchange',
  summary: 'POST /oauth/token?grant_type=authorization_code&code=…: a fresh code per request (exchanges/s)',
  async seed(db, companyId) {
    const { app, grantId } = await installBenchApp(db, companyId, ['vehicles.read']);
    const now = Date.now();
    const created = new Date(now).toISOString();
    // Long-lived on purpose: the codes must outlast seeding and the scenarios that run before this one.
    const expires = new Date(now + 6 * 3600_000).toISOString();
    const codes: string[] = [];
    const total = codesNeeded();
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i += BATCH) {
        const rows = [];
        for (let j = i; j < Math.min(total, i + BATCH); j++) {
          const code = newSecret('fc');
          codes.push(code);
          rows.push({
            code_hash: digest(code),
            grant_id: grantId,
            app_id: app.id,
            company_id: companyId,
            user_id: null,
            redirect_uri: BENCH_REDIRECT,
            scopes: json(['vehicles.read']),
            created_at: created,
            expires_at: expires,
            consumed_at: null,
          });
        }
        await trx.insertInto('oauth_codes').values(rows).execute();
      }
    });
    const fixed = `&redirect_uri=${encodeURIComponent(BENCH_REDIRECT)}&client_id=${encodeURIComponent(app.client_id)}&client_secret=${encodeURIComponent(app.client_secret)}`;
    return { codes, fixed, next: 0 };
  },
  requests(state) {
    // One cursor for every pass, so no code is sent twice.
    return () => ({
      method: 'POST',
      path: `/oauth/token?grant_type=authorization_code&code=${state.codes[state.next++ % state.codes.length]}${state.fixed}`,
    });
  },
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.token_type !== 'Bearer' || !res.body.access_token || res.body.expires_in !== 7200)
      throw new Error(`unexpected token response ${JSON.stringify(res.body)}`);
  },
});

/**
 * A delivery node that dies (test/events/webhooks/durability.test.ts starts it and kills it with SIGKILL).
 *   node --import tsx test/events/webhooks/crash-child.ts <DATABASE_URL> <claim|send> <nowMs>
 * claim: fans out and claims every due delivery, says so on stdout, then hangs before sending;
 * send:  runs a full worker pass (the test's receiver holds the answer), hanging mid-attempt.
 */
import { loadConfig } from '../../../src/config/index.js';
import { openDb } from '../../../src/storage/db.js';
import { fanOut } from '../../../src/events/webhooks/fanout.js';
import { claim, holdSqliteLease } from '../../../src/events/webhooks/claims.js';
import { createWebhookRuntime } from '../../../src/events/webhooks/index.js';
import { TEST_ENV } from './receiver.js';

const [url, mode, nowArg] = process.argv.slice(2);
const nowMs = Number(nowArg);
const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', ...TEST_ENV });
const db = openDb(url, { poolSize: 2 });
const quiet = { warn() {}, error() {}, child: () => quiet };

if (mode === 'claim') {
  if (db.kind === 'sqlite' && !(await holdSqliteLease(db, 'doomed-node', nowMs, config.webhooks.leaseMs)))
    throw new Error('no lease');
  await fanOut({ db, publicUrl: config.publicUrl, nowMs, batch: 500 });
  const claimed = await claim(db, { nowMs, leaseMs: config.webhooks.leaseMs, limit: 100, token: 'doomed' });
  process.stdout.write(`claimed ${claimed.length}\n`);
} else {
  const rt = createWebhookRuntime(db, config, quiet as never, { clock: () => nowMs });
  process.stdout.write('sending\n');
  await rt.worker.runOnce();
  process.stdout.write('finished\n');
}
setInterval(() => {}, 60_000);

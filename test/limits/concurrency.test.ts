/**
 * The spec's concurrency limit: at most 10 GET /v1/vehicle_locations/:id of one company at once. Held
 * requests (the same module on a route whose handler waits on a gate) show the 11th refused and every
 * exit path freeing its slot — an answer, an error, a client that went away — on memory and on Redis,
 * and across two instances sharing Redis. The real app shows the route is wired to its company's slots,
 * on both databases, and that two app nodes on one database and one Redis share them.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandler } from '../../src/http/plumbing/error-handler.js';
import { notFound } from '../../src/core/errors.js';
import { installConcurrencyLimits } from '../../src/limits/concurrency.js';
import { MemoryStore } from '../../src/limits/memory-store.js';
import { RedisStore, limitsRedisClient } from '../../src/limits/redis-store.js';
import type { LimitStore } from '../../src/limits/store.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { buildApp } from '../../src/app.js';
import { createVehicle } from '../../src/domain/vehicles/service.js';
import { dialects, makeApp, type TestApp } from '../helper.js';
import { BACKINGS, SHARED_REDIS_URL, backingEnv, dropPrefix, uniquePrefix } from './redis.js';

const BODY_429 = JSON.stringify({
  error_message:
    'Too many concurrent requests: at most 10 GET /v1/vehicle_locations/:id requests of one company may run at once. Try again in 1 second.',
});
const KEY = (companyId: number) => `location_history:${companyId}`;

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The concurrency module on the location-history route of a bare app whose handler waits for `open()`. */
async function heldApp(store: LimitStore) {
  const app: FastifyInstance = Fastify();
  installErrorHandler(app);
  app.decorateRequest('auth', null as never);
  app.addHook('onRequest', async (req) => {
    req.auth = {
      companyId: Number(req.headers['x-company'] ?? 1),
      credential: { type: 'api_key', id: 1 },
      scopes: 'all',
      actingUserId: null,
    };
  });
  installConcurrencyLimits(app, store, loadConfig({}).limits);
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  app.get(
    '/v1/vehicle_locations/:id',
    { config: { scope: 'locations.vehicle_locations_single', concurrencyLimit: 'location_history' } },
    async (req) => {
      await gate;
      const id = (req.params as { id: string }).id;
      if (id === 'missing') throw notFound('vehicle missing');
      if (id === 'broken') throw new Error('the handler failed');
      return { id };
    },
  );
  await app.ready();
  return {
    app,
    get: (id: string, company = 1) =>
      app.inject({ method: 'GET', url: `/v1/vehicle_locations/${id}`, headers: { 'x-company': String(company) } }),
    open: () => open(),
    close: () => {
      gate = new Promise<void>((r) => (open = r));
    },
  };
}

for (const backing of BACKINGS) {
  describe(`concurrency limit, held requests [${backing}]`, () => {
    const prefix = uniquePrefix('concurrency');
    const client = limitsRedisClient(SHARED_REDIS_URL, { commandTimeoutMs: 1000 });
    let run = 0;
    const newStore = async (): Promise<LimitStore> => {
      if (backing === 'memory') return new MemoryStore();
      if (client.status === 'wait') await client.connect();
      return new RedisStore(client, `${prefix}${++run}:`);
    };
    after(async () => {
      client.disconnect();
      if (backing === 'redis') await dropPrefix(SHARED_REDIS_URL, prefix);
    });

    test('10 in flight are served, the 11th is 429 with Retry-After: 1; after the answers every slot is free', async () => {
      const store = await newStore();
      const h = await heldApp(store);
      try {
        const held = Array.from({ length: 10 }, (_, i) => h.get(String(i)));
        await until('10 slots taken', async () => (await store.taken(KEY(1))) === 10);
        const refused = await h.get('11');
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.headers['retry-after'], '1');
        assert.equal(refused.body, BODY_429);
        assert.equal(await store.taken(KEY(1)), 10, 'the refused request took no slot');
        const other = h.get('x', 2);
        await until('the other company got its slot', async () => (await store.taken(KEY(2))) === 1);
        h.open();
        for (const res of await Promise.all(held)) assert.equal(res.statusCode, 200);
        assert.equal((await other).statusCode, 200, 'another company has its own 10');
        await until('every slot released', async () => (await store.taken(KEY(1))) === 0);
        assert.equal((await h.get('12')).statusCode, 200);
      } finally {
        await h.app.close();
      }
    });

    test('errors free their slots: 404 and 500 answers', async () => {
      const store = await newStore();
      const h = await heldApp(store);
      try {
        h.open();
        for (let i = 0; i < 12; i++) {
          assert.equal((await h.get('missing')).statusCode, 404);
          assert.equal((await h.get('broken')).statusCode, 500);
        }
        await until('every slot released', async () => (await store.taken(KEY(1))) === 0);
        const many = await Promise.all(Array.from({ length: 10 }, () => h.get('ok')));
        assert.deepEqual(
          many.map((r) => r.statusCode),
          Array(10).fill(200),
        );
      } finally {
        await h.app.close();
      }
    });

    test('a client that goes away frees its slot while the handler still runs', async () => {
      const store = await newStore();
      const h = await heldApp(store);
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const port = (h.app.server.address() as { port: number }).port;
        const reqs = Array.from({ length: 10 }, (_, i) => {
          const r = http.get({ host: '127.0.0.1', port, path: `/v1/vehicle_locations/${i}` });
          r.on('error', () => {});
          return r;
        });
        await until('10 slots taken', async () => (await store.taken(KEY(1))) === 10);
        assert.equal((await h.get('11')).statusCode, 429);
        for (const r of reqs) r.destroy();
        await until('the abandoned slots released', async () => (await store.taken(KEY(1))) === 0);
        const next = h.get('12');
        await until('a new request got a slot', async () => (await store.taken(KEY(1))) === 1);
        h.open();
        assert.equal((await next).statusCode, 200);
      } finally {
        h.open();
        await h.app.close();
      }
    });

    if (backing === 'redis') {
      test('two instances on one Redis share the 10 slots of a company', async () => {
        const store = await newStore();
        const a = await heldApp(store);
        const b = await heldApp(new RedisStore(client, `${prefix}${run}:`));
        try {
          const held = [...Array.from({ length: 6 }, () => a.get('a')), ...Array.from({ length: 4 }, () => b.get('b'))];
          await until('10 slots taken', async () => (await store.taken(KEY(1))) === 10);
          for (const h of [a, b]) {
            const refused = await h.get('11');
            assert.equal(refused.statusCode, 429);
            assert.equal(refused.body, BODY_429);
          }
          a.open();
          b.open();
          for (const res of await Promise.all(held)) assert.equal(res.statusCode, 200);
          await until('every slot released', async () => (await store.taken(KEY(1))) === 0);
        } finally {
          await a.app.close();
          await b.app.close();
        }
      });
    }
  });
}

for (const dialect of dialects()) {
  for (const backing of BACKINGS) {
    describe(`concurrency limit on GET /v1/vehicle_locations/:id [${dialect}, ${backing}]`, () => {
      const redis = backingEnv(backing, 'history');
      let t: TestApp;
      let vehicleId: number;
      before(async () => {
        t = await makeApp(dialect, redis.env);
        vehicleId = (await createVehicle(t.db, { companyId: t.company.id }, { number: 'CL-1' })).id;
      });
      after(async () => {
        await t.close();
        await redis.drop();
      });
      const history = (id: number | string = vehicleId, query = '?date=2024-05-01') =>
        t.call({ method: 'GET', url: `/v1/vehicle_locations/${id}${query}` });

      test("the company's 11th request is refused while 10 run; answers and errors free their slots", async () => {
        const store = t.app.limits.store;
        assert.equal((await history()).status, 200);
        assert.equal((await history(999_999)).status, 404);
        assert.equal((await history(vehicleId, '')).status, 400);
        await until('no slot held after the answers', async () => (await store.taken(KEY(t.company.id))) === 0);
        const running = [];
        for (let i = 0; i < 10; i++) running.push((await store.acquire(KEY(t.company.id), 10, 60_000))!);
        const refused = await history();
        assert.equal(refused.status, 429);
        assert.equal(refused.headers['retry-after'], '1');
        assert.equal(refused.raw, BODY_429);
        const other = await t.newCompany('Other Freight');
        const theirs = (await createVehicle(t.db, { companyId: other.id }, { number: 'CL-2' })).id;
        assert.equal(
          (await t.call({ method: 'GET', url: `/v1/vehicle_locations/${theirs}?date=2024-05-01`, as: other })).status,
          200,
          'another company is not affected',
        );
        assert.equal(
          (await t.call({ method: 'GET', url: '/v1/vehicles' })).status,
          200,
          'other routes are not affected',
        );
        await running.pop()!.release();
        assert.equal((await history()).status, 200, 'a freed slot serves the next request');
        await until('the request released its slot', async () => (await store.taken(KEY(t.company.id))) === 9);
        for (const s of running) await s.release();
      });

      if (backing === 'redis') {
        test('two app nodes on one database and one Redis share the slots', async () => {
          const config = loadConfig({
            ...TEST_ENV,
            DATABASE_URL: 'sqlite::memory:',
            LOG_LEVEL: 'silent',
            ...redis.env,
          });
          const second = await buildApp(config, { db: t.db, skipMigrations: true });
          try {
            const running = [];
            for (let i = 0; i < 10; i++)
              running.push((await t.app.limits.store.acquire(KEY(t.company.id), 10, 60_000))!);
            const res = await second.inject({
              method: 'GET',
              url: `/v1/vehicle_locations/${vehicleId}?date=2024-05-01`,
              headers: t.company.headers,
            });
            assert.equal(res.statusCode, 429);
            assert.equal(res.body, BODY_429);
            await running[0].release();
            const ok = await second.inject({
              method: 'GET',
              url: `/v1/vehicle_locations/${vehicleId}?date=2024-05-01`,
              headers: t.company.headers,
            });
            assert.equal(ok.statusCode, 200);
            for (const s of running) await s.release();
          } finally {
            await second.close();
          }
        });
      }
    });
  }
}

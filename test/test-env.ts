/**
 * Settings every test app (test/helper.ts) and test server (test/server-process.ts) starts with unless
 * a test names its own. The suite runs many apps at once on a small machine, where the event loop of
 * each lags behind the others' work: shedding on that lag would answer test requests 503 at random.
 * test/ops/load-shedding.test.ts turns it on to test it.
 */
export const TEST_ENV: Readonly<Record<string, string>> = { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' };

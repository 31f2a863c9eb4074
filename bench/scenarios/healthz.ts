/**
 * Calibration, no target: GET /healthz runs the app's request plumbing (URL rewrite, hooks, request
 * id, response schema) with no credential and no database. The gap between the baseline and this row
 * is what the framework set-up costs; the gap between this row and the others is auth + data + wire.
 */
import { defineScenario } from '../lib/scenario.js';

export default defineScenario({
  name: 'healthz',
  summary: 'GET /healthz: app plumbing only (no auth, no database); calibration, no target',
  seed: async () => null,
  requests: () => () => ({ path: '/healthz' }),
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}`);
  },
});

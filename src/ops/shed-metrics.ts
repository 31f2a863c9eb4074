/**
 * The load-shedding metrics (docs/operations.md), read from the shedding state at scrape time: the
 * shedding module counts in plain numbers and knows nothing of Prometheus.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { SHED_REASONS, type LoadShedding } from './load-shedding.js';

export function registerSheddingMetrics(registry: Registry, state: () => LoadShedding | undefined): void {
  const registers = [registry];
  new Gauge({
    name: 'fleet_load_shedding',
    help: '1 while a request arriving now would be shed for this reason (event_loop_delay, in_flight), else 0',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      const why = state()?.reason() ?? null;
      for (const reason of SHED_REASONS) this.set({ reason }, why === reason ? 1 : 0);
    },
  });
  new Counter({
    name: 'fleet_load_shed_requests_total',
    help: 'Requests answered 503 overloaded at once instead of being served, by reason (event_loop_delay, in_flight)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      const s = state();
      this.reset();
      for (const reason of SHED_REASONS) this.inc({ reason }, s?.shed[reason] ?? 0);
    },
  });
  new Gauge({
    name: 'fleet_http_requests_in_flight',
    help: 'Requests being served now (the probes and /metrics left out); shedding starts at LOAD_SHED_MAX_IN_FLIGHT_REQUESTS',
    registers,
    collect() {
      this.set(state()?.inFlight() ?? 0);
    },
  });
  new Gauge({
    name: 'fleet_load_shed_event_loop_delay_seconds',
    help: 'The event-loop delay load shedding decides on: the mean delay of a 10 ms timer over the last sample (0 while that check is off)',
    registers,
    collect() {
      this.set((state()?.eventLoopDelayMs() ?? 0) / 1000);
    },
  });
}

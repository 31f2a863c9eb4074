/**
 * A load-generating client, run as a child process of the bench (bench/lib/load.ts starts one or more
 * per measurement), so that its CPU is its own and measurable, and nothing of the runner (seeding,
 * /proc sampling, the report) shares its event loop. Commands over IPC:
 *
 *   setup   { targets, headers, source, state?, index, of, timeoutMs }  open the connections
 *   phase   { seconds, record }   load for `seconds`; answers counts, latencies (when `record`) and the
 *                                 process's own CPU time over the phase
 *   finish  {}                    answers the scenario's state as it stands, for the next run
 *   stop                          closes and exits (so does losing the parent)
 *
 * `source` is either `{ fixed: BenchRequest }` (the baseline) or `{ file }`, a scenario module whose
 * `requests(state)` makes the requests here, in the client. Client `index` of `of` sends every
 * `of`-th request of the scenario's sequence, starting at its own index, so several clients never send
 * the same one (one-use codes, fresh batch sequence numbers).
 */
import { pathToFileURL } from 'node:url';
import { Load } from './lib/http-load.js';
import type { BenchRequest, Scenario } from './lib/scenario.js';

interface Command {
  type: string;
  seq?: number;
  targets?: Array<{ url: string; connections: number }>;
  headers?: Record<string, string>;
  source?: { fixed: BenchRequest } | { file: string };
  state?: unknown;
  index?: number;
  of?: number;
  timeoutMs?: number;
  seconds?: number;
  record?: boolean;
}

let load: Load | null = null;
let state: unknown;
let generated = 0;

async function generator(m: Command): Promise<() => BenchRequest> {
  const source = m.source!;
  if ('fixed' in source) return () => source.fixed;
  const scenario = ((await import(pathToFileURL(source.file).href)) as { default: Scenario }).default;
  state = m.state;
  const gen = scenario.requests(state);
  const index = m.index ?? 0;
  const of = m.of ?? 1;
  if (of === 1) return () => (generated++, gen());
  return () => {
    let mine = gen();
    for (let k = 1; k < of; k++) {
      const r = gen();
      if (k === index) mine = r;
    }
    generated += of;
    return mine;
  };
}

async function handle(m: Command): Promise<Record<string, unknown>> {
  if (m.type === 'setup') {
    load = new Load(m.targets!, m.headers ?? {}, await generator(m), m.timeoutMs ?? 10_000);
    await load.open();
    return {};
  }
  if (m.type === 'phase' && load) {
    const cpu0 = process.cpuUsage();
    const r = await load.phase(m.seconds!, !!m.record);
    const cpu = process.cpuUsage(cpu0);
    return { ...r, cpuS: (cpu.user + cpu.system) / 1e6 };
  }
  if (m.type === 'finish') return { state, generated };
  throw new Error(`unknown command ${JSON.stringify(m.type)}`);
}

const send = process.send?.bind(process);
if (!send) throw new Error('bench/client.ts must be started by the bench (it reports over IPC)');
const stop = () => {
  load?.close();
  process.exit(0);
};
process.on('message', (m: Command) => {
  if (m?.type === 'stop') return stop();
  handle(m).then(
    (reply) => send({ type: 'ok', seq: m.seq, ...reply }),
    (err: Error) => send({ type: 'error', seq: m.seq, error: err.message }),
  );
});
process.on('disconnect', stop);
send({ type: 'ready', pid: process.pid });

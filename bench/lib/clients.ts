/** The client processes of one measurement (bench/client.ts), started, set up, driven and stopped together. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './child.js';
import type { LoadSettings, Phase, RequestSource, Target } from './load.js';

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), '..', 'client.ts');
const REQUEST_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 60_000;

/** Starts the client processes of one measurement and sets up their connections. */
export async function startClients(
  nodes: Target[],
  source: RequestSource,
  headers: Record<string, string>,
  s: LoadSettings,
) {
  const k = Math.max(1, Math.min(s.clients, s.connections));
  // Connection c goes to node c mod nodes and to client c mod k.
  const plans = Array.from({ length: k }, () => new Map<string, number>());
  for (let c = 0; c < Math.max(s.connections, nodes.length); c++) {
    const plan = plans[c % k]!;
    const url = nodes[c % nodes.length]!.url;
    plan.set(url, (plan.get(url) ?? 0) + 1);
  }
  const started = await Promise.allSettled(
    plans.map((_, i) =>
      startChild(CLIENT, [], {
        name: `bench client ${i + 1}/${k}`,
        execArgv: ['--import', 'tsx'],
        env: process.env,
        startTimeoutMs: START_TIMEOUT_MS,
      }),
    ),
  );
  const children = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = () => Promise.all(children.map((c) => c.stop())).then(() => undefined);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const all = <T>(f: (c: Child, i: number) => Promise<T>) => Promise.all(children.map(f));
  const file = 'file' in source ? { file: source.file } : source;
  const state = 'file' in source ? source.state : undefined;
  try {
    await all((c, i) => {
      const mine = [...plans[i]!].map(([url, connections]) => ({ url, connections }));
      return c.command(
        { type: 'setup', targets: mine, headers, source: file, state, index: i, of: k, timeoutMs: REQUEST_TIMEOUT_MS },
        START_TIMEOUT_MS,
      );
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    phase: (seconds: number, record: boolean) =>
      all((c) =>
        c.command({ type: 'phase', seconds, record }, (seconds + 30) * 1000 + REQUEST_TIMEOUT_MS),
      ) as unknown as Promise<Phase[]>,
    /** The state of the client that went furthest through the scenario's sequence. */
    finish: async () => {
      const ends = await all((c) => c.command({ type: 'finish' }, 30_000));
      return ends.reduce((a, b) => (Number(b.generated) > Number(a.generated) ? b : a)).state ?? state;
    },
    stop,
  };
}

/** Starts bench/server.ts in a child process, talks to it over IPC, and stops it, each step with a deadline. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/config/node-flags.js';
import { startChild } from './child.js';

export { running } from './child.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'server.ts');
const START_TIMEOUT_MS = 60_000;
const COMMAND_TIMEOUT_MS = 30_000;
/** With BENCH_CPU_PROF=1 each measured run's V8 CPU profile is written here (see README). */
export const PROFILE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'profiles');

export interface ServerProcess {
  url: string;
  pid: number;
  /** Starts the V8 CPU profiler in the server. */
  profileStart(): Promise<void>;
  /** Stops it and writes the profile to `file`. */
  profileStop(file: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startServer(args: string[]): Promise<ServerProcess> {
  // The Node flags of a production server (bin/fleet.js), for the app and the baseline alike.
  const name = `bench server (${args[0]})`;
  const child = await startChild(SERVER, args, {
    name,
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
    startTimeoutMs: START_TIMEOUT_MS,
  });
  const m = child.first;
  if (m?.type !== 'listening' || !m.port) {
    await child.stop();
    throw new Error(`unexpected message from ${name}: ${JSON.stringify(m)}`);
  }
  return {
    url: `http://127.0.0.1:${m.port}`,
    pid: child.pid,
    profileStart: () => child.command({ type: 'profile-start' }, COMMAND_TIMEOUT_MS).then(() => undefined),
    profileStop: (file) => child.command({ type: 'profile-stop', file }, COMMAND_TIMEOUT_MS).then(() => undefined),
    stop: child.stop,
  };
}

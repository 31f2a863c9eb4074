/** Starts bench/server.ts in a child process, talks to it over IPC, and stops it, each step with a deadline. */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/config/node-flags.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'server.ts');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
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

/** Child processes still running, so an interrupted run can end them. */
export const running = new Set<ChildProcess>();

interface Reply {
  type: string;
  seq?: number;
  port?: number;
  error?: string;
}

export function startServer(args: string[]): Promise<ServerProcess> {
  // The Node flags of a production server (bin/fleet.js), for the app and the baseline alike.
  const child = fork(SERVER, args, {
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));

  let seq = 0;
  const command = (msg: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => {
      const id = ++seq;
      const timer = setTimeout(() => {
        child.off('message', onReply);
        reject(new Error(`bench server did not answer ${JSON.stringify(msg)} within ${COMMAND_TIMEOUT_MS} ms`));
      }, COMMAND_TIMEOUT_MS);
      const onReply = (m: Reply) => {
        if (m?.seq !== id) return;
        clearTimeout(timer);
        child.off('message', onReply);
        if (m.error) reject(new Error(m.error));
        else resolve();
      };
      child.on('message', onReply);
      child.send({ ...msg, seq: id });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (child.connected) child.send({ type: 'stop' });
      else child.kill('SIGTERM');
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench server (${args[0]}) did not listen within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('message', (m: Reply) => {
      clearTimeout(timer);
      if (m?.type !== 'listening' || !m.port) return reject(new Error(`unexpected message from bench server: ${JSON.stringify(m)}`));
      resolve({
        url: `http://127.0.0.1:${m.port}`,
        pid: child.pid!,
        profileStart: () => command({ type: 'profile-start' }),
        profileStop: (file) => command({ type: 'profile-stop', file }),
        stop,
      });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bench server (${args[0]}) exited before listening (code ${code}, signal ${signal})`));
    });
  });
}

/**
 * A real server process (`fleet serve`) for tests that need one: multi-node, SIGKILL, logs. It starts
 * with the given environment, reports the URL it listens on, and keeps its output for assertions. It runs
 * the test file's compiled copy of src/ (./cli-process.ts), as the installed command runs dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_ENV } from './test-env.js';
import { BUILD, ROOT } from './cli-process.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

export function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [join(BUILD, 'cli/main.js'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...TEST_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited(child);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not listen within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      resolve({ child, url: m[1], output: () => out, stop });
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${out}`));
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

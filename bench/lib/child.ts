/**
 * A bench child process (a server under test, or a load-generating client) spoken to over IPC: it
 * announces itself with one first message, then answers numbered commands (`{ seq }` echoed back,
 * `error` on failure). Every step has a deadline; `running` lets an interrupted run end them all.
 */
import { fork, type ChildProcess } from 'node:child_process';

const STOP_TIMEOUT_MS = 10_000;

export interface Reply {
  type: string;
  seq?: number;
  error?: string;
  [key: string]: unknown;
}

export interface Child {
  pid: number;
  /** The first message the child sent (e.g. `listening` with its port). */
  first: Reply;
  /** Sends a command and waits for its answer, at most `timeoutMs`. */
  command(msg: Record<string, unknown>, timeoutMs: number): Promise<Reply>;
  /** Asks it to stop (`{ type: 'stop' }`), kills it when it does not within 10 s. */
  stop(): Promise<void>;
}

/** Child processes still running, so an interrupted run can end them. */
export const running = new Set<ChildProcess>();

export function startChild(
  script: string,
  args: string[],
  opts: { name: string; execArgv: string[]; env: NodeJS.ProcessEnv; startTimeoutMs: number },
): Promise<Child> {
  const child = fork(script, args, {
    execArgv: opts.execArgv,
    env: opts.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone over IPC: scenario state may hold Maps, latencies travel as typed arrays.
    serialization: 'advanced',
  });
  running.add(child);
  child.on('exit', () => running.delete(child));

  let seq = 0;
  const command = (msg: Record<string, unknown>, timeoutMs: number) =>
    new Promise<Reply>((resolve, reject) => {
      const id = ++seq;
      const timer = setTimeout(() => {
        child.off('message', onReply);
        reject(new Error(`${opts.name} did not answer ${String(msg.type)} within ${timeoutMs} ms`));
      }, timeoutMs);
      const onReply = (m: Reply) => {
        if (m?.seq !== id) return;
        clearTimeout(timer);
        child.off('message', onReply);
        if (m.error) reject(new Error(m.error));
        else resolve(m);
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
      reject(new Error(`${opts.name} did not start within ${opts.startTimeoutMs} ms`));
    }, opts.startTimeoutMs);
    child.once('message', (first: Reply) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, first, command, stop });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${opts.name} exited before it started (code ${code}, signal ${signal})`));
    });
  });
}

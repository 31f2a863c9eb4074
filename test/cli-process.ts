/**
 * The `fleet` CLI as real processes, for the CLI tests. The sources of this tree are compiled once per
 * test file (scripts/build.mjs --out, under a second) into a folder of their own at the depth of src/,
 * and each command runs as `node <that folder>/cli/main.js …`, as the installed command runs dist/: a
 * process is ready in a few tenths of a second, where one through tsx took seconds.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, type Dialect } from './helper.js';
import { REPO } from './repo.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Beside src/, so that node_modules and paths relative to the package root resolve as from dist/. */
export const BUILD = join(ROOT, `.tmp-cli-build-${process.pid}`);
export const TMP = mkdtempSync(join(tmpdir(), 'fleet-cli-'));

before(() => {
  // The repository's own script: run through the link of a compiled test tree it would not see itself as main.
  const r = spawnSync(process.execPath, [join(REPO, 'scripts/build.mjs'), '--out', BUILD], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `the build failed:\n${r.stderr}`);
});
after(() => {
  rmSync(BUILD, { recursive: true, force: true });
  rmSync(TMP, { recursive: true, force: true });
});

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the process's standard input, which is then closed (else it is empty). */
  stdin?: string;
  timeoutMs?: number;
}

/** Runs one `fleet` command to completion (killed and failed after the timeout). */
export function fleet(args: string[], env: Record<string, string>, opts: RunOptions = {}): Promise<Run> {
  const child = spawn(process.execPath, [join(BUILD, 'cli/main.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', PORT: '', HOST: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(opts.stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fleet ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The one JSON object a --json command prints. */
export function jsonOf(r: Run): unknown {
  const lines = r.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `expected one line of JSON, got:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return JSON.parse(lines[0]);
}

/** Runs a command with --json, asserts exit 0, and returns its JSON. */
export async function ok(args: string[], env: Record<string, string>, opts?: RunOptions): Promise<unknown> {
  const r = await fleet([...args, '--json'], env, opts);
  assert.equal(r.code, 0, `fleet ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return jsonOf(r);
}

/** Runs a command without --json, asserts exit 0, and returns what it printed. */
export async function human(args: string[], env: Record<string, string>, opts?: RunOptions): Promise<string> {
  const r = await fleet(args, env, opts);
  assert.equal(r.code, 0, `fleet ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A database the CLI can open by URL: a SQLite file here, or a fresh PostgreSQL schema. */
export async function databaseFor(dialect: Dialect, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `sqlite:${join(TMP, `${name}.db`)}`, drop: async () => {} };
  return freshDatabase('postgres');
}

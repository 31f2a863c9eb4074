/**
 * How fast the program starts: the server until it listens on an existing database, `fleet --help`,
 * and a `fleet` command that reads the database, each run from the compiled build and through tsx,
 * alternately, and `npm start` as a user runs it. Targets (issue 29): listening within 3 s,
 * `fleet --help` within 1 s.
 *
 *   npx tsx bench/startup.ts                      # 5 runs of each
 *   BENCH_STARTUP_RUNS=9 npx tsx bench/startup.ts
 *
 * Prints a table and writes bench/results/startup.json. Wall times depend on what else the host runs,
 * so every row also gives the process's own CPU time until it was ready (user + system, from
 * /proc/<pid>/stat), and the run gives the host's load average before and after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../src/config/node-flags.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const BUILD = join(ROOT, `.tmp-bench-build-${process.pid}`);
const TMP = mkdtempSync(join(tmpdir(), 'fleet-startup-'));
const DB = `sqlite:${join(TMP, 'fleet.db')}`;
const TIMEOUT_MS = 120_000;

interface Sample {
  wallMs: number;
  /** The process's CPU until ready, ms; null where it cannot be read (npm's child processes). */
  cpuMs: number | null;
}

/** User + system CPU of a live process, ms (Linux). */
function cpuOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * Runs `cmd` until its output matches `ready` (a server's listen line) or it exits; then stops it
 * (SIGTERM to its process group) and waits for the exit.
 */
function timeUntil(cmd: string[], ready: RegExp | null, env: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  const child = spawn(cmd[0], cmd.slice(1), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: DB, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  return new Promise((resolve, reject) => {
    let sample: Sample | null = null;
    const timer = setTimeout(
      () => (process.kill(-child.pid!, 'SIGKILL'), reject(new Error(`${cmd.join(' ')}: no answer\n${out}`))),
      TIMEOUT_MS,
    );
    const onData = (d: Buffer) => {
      out += d;
      if (sample || !ready || !ready.test(out)) return;
      sample = { wallMs: performance.now() - started, cpuMs: cpuOf(child.pid!) };
      process.kill(-child.pid!, 'SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      if (sample) return resolve(sample);
      if (ready || code !== 0) return reject(new Error(`${cmd.join(' ')} exited ${code}\n${out}`));
      resolve({ wallMs, cpuMs: null });
    });
  });
}

/** A command that exits by itself: wall time, and its CPU from the kernel's accounting of the child. */
function timeCommand(cmd: string[]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...cmd], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: DB, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000 };
}

const node = (...args: string[]) => [process.execPath, ...SERVER_NODE_FLAGS, ...args];
const compiled = (...args: string[]) => node(join(BUILD, 'cli/main.js'), ...args);
const viaTsx = (...args: string[]) => node('--import', 'tsx', 'src/cli/main.ts', ...args);
const LISTENING = /listening on http/;

interface Case {
  name: string;
  target?: number;
  /** What each way of running does once; null for a way the case does not have. */
  ways: Record<'tsx' | 'compiled', (() => Promise<Sample>) | null>;
}

const CASES: Case[] = [
  {
    name: 'serve --demo, existing database: until listening',
    target: 3000,
    ways: {
      tsx: () => timeUntil(viaTsx('serve', '--demo'), LISTENING),
      compiled: () => timeUntil(compiled('serve', '--demo'), LISTENING),
    },
  },
  {
    name: 'fleet --help',
    target: 1000,
    ways: { tsx: async () => timeCommand(viaTsx('--help')), compiled: async () => timeCommand(compiled('--help')) },
  },
  {
    name: 'fleet user list --company 1 --json',
    ways: {
      tsx: async () => timeCommand(viaTsx('user', 'list', '--company', '1', '--json')),
      compiled: async () => timeCommand(compiled('user', 'list', '--company', '1', '--json')),
    },
  },
  {
    // What a user types: npm's own start-up, then bin/fleet.js checking that dist/ is current (--build-if-stale).
    name: 'npm start (dist/ current), existing database: until listening',
    target: 3000,
    ways: { tsx: null, compiled: () => timeUntil(['npm', 'start'], LISTENING) },
  },
  {
    name: 'bin/fleet.js --help (dist/ current)',
    target: 1000,
    ways: { tsx: null, compiled: async () => timeCommand(node('bin/fleet.js', '--help')) },
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);

async function main() {
  const load = [loadavg()[0]];
  const build = timeCommand([process.execPath, 'scripts/build.mjs', '--out', BUILD]);
  // dist/ itself, as `npm start` finds it after `npm install` (so that no measured start builds it).
  timeCommand([process.execPath, 'scripts/build.mjs', '--if-stale']);
  // The first start creates and seeds the database; every measured start finds it.
  const first = await timeUntil(compiled('serve', '--demo'), /Admin:/);
  const results = [];
  for (const c of CASES) {
    const samples: Record<string, Sample[]> = { tsx: [], compiled: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const way of ['compiled', 'tsx'] as const) {
        const run = c.ways[way];
        if (run) samples[way].push(await run());
      }
    }
    const row = (way: string) => {
      const xs = samples[way];
      if (!xs.length) return null;
      const cpu = xs.map((x) => x.cpuMs).filter((x): x is number => x !== null);
      return {
        wall_median_ms: Math.round(median(xs.map((x) => x.wallMs))),
        wall_min_ms: Math.round(Math.min(...xs.map((x) => x.wallMs))),
        cpu_median_ms: cpu.length ? Math.round(median(cpu)) : null,
      };
    };
    results.push({ case: c.name, target_ms: c.target ?? null, tsx: row('tsx'), compiled: row('compiled') });
    process.stderr.write(`startup: ${c.name} done\n`);
  }
  load.push(loadavg()[0]);
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    runs: RUNS,
    load_average_1m: { before: load[0], after: load[1] },
    build_ms: Math.round(build.wallMs),
    first_start_empty_database_ms: Math.round(first.wallMs),
    results,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/startup.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, ${RUNS} runs each, load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)}`,
  );
  console.log(
    `build (scripts/build.mjs): ${s(build.wallMs)}; first start on an empty database (compiled, seeding the demo): ${s(first.wallMs)}`,
  );
  console.log('| case | tsx: median (min), CPU | compiled: median (min), CPU | target | met (compiled median) |');
  console.log('|---|---|---|---|---|');
  for (const r of results) {
    const cell = (x: typeof r.tsx) =>
      x ? `${s(x.wall_median_ms)} (${s(x.wall_min_ms)}), ${x.cpu_median_ms === null ? '-' : s(x.cpu_median_ms)}` : '-';
    const met = r.target_ms === null ? '-' : r.compiled!.wall_median_ms <= r.target_ms ? 'yes' : 'NO';
    console.log(
      `| ${r.case} | ${cell(r.tsx)} | ${cell(r.compiled)} | ${r.target_ms === null ? '-' : s(r.target_ms)} | ${met} |`,
    );
  }
}

try {
  await main();
} finally {
  rmSync(BUILD, { recursive: true, force: true });
  rmSync(TMP, { recursive: true, force: true });
}

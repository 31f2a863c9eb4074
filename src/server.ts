/**
 * The process entry for serving: build the app (src/app.ts), listen, and shut down gracefully.
 *
 * On SIGTERM or SIGINT the server stops accepting connections, lets in-flight requests finish
 * (Fastify's close; new requests on kept-alive connections get 503), then the app's onClose hook closes
 * the database, and the process exits 0. If that takes longer than SHUTDOWN_GRACE_MS the process exits 1
 * anyway; a second signal exits 1 at once.
 *
 * Run it with `fleet serve [--demo]` (src/cli/main.ts) or directly, with the server's Node flags
 * (src/config/node-flags.ts): `node --max-semi-space-size=32 --no-allocation-site-pretenuring --import tsx src/server.ts`.
 */
import { realpathSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { warmGeography } from './telemetry/geocode/warm.js';
import { ConfigError, loadConfig, type Config } from './config/index.js';
import { demoBanner, seedDemo } from './demo/seed.js';
import { startServerWorkers } from './workers.js';

export interface ServeOptions {
  /** Seed the demo company into an empty database and print how to use it. */
  demo?: boolean;
  /** Where the listen line and the demo banner are written; stdout by default. */
  out?: (text: string) => void;
  /** Install SIGTERM/SIGINT handlers that shut down and exit the process (default true). */
  handleSignals?: boolean;
  /** The geography indexes' build when the caller has started it (warmGeography); started here otherwise. */
  geography?: Promise<unknown>;
}

export interface RunningServer {
  app: FastifyInstance;
  /** The address actually bound, e.g. `http://127.0.0.1:3000` (the real port when PORT=0). */
  url: string;
  /** Graceful stop without exiting the process. */
  close(): Promise<void>;
}

/** `http://host:port` of a bound address (IPv6 in brackets). */
export function urlOf(addr: AddressInfo | string | null): string {
  if (addr === null) return 'http://unknown';
  if (typeof addr === 'string') return `unix:${addr}`;
  const v6 = addr.family === 'IPv6' || (addr.family as unknown) === 6;
  return `http://${v6 ? `[${addr.address}]` : addr.address}:${addr.port}`;
}

export async function serve(config: Config, opts: ServeOptions = {}): Promise<RunningServer> {
  const out = opts.out ?? ((text: string) => void process.stdout.write(text));
  // On another thread while the app is built, and in place before the port is bound, so that no
  // request waits for it (./telemetry/geocode/warm.ts).
  const geography = opts.geography ?? warmGeography();
  const app = await buildApp(config);
  let url: string;
  let demo: Awaited<ReturnType<typeof seedDemo>> | null = null;
  try {
    await geography;
    await app.listen({ host: config.host, port: config.port });
    // The demo is seeded only once the port is ours: a start that cannot serve (a busy port) writes
    // nothing, so the next start still creates the demo and prints its password. The seeding's
    // synchronous stretch is start-up, not load, for the load shedder.
    if (opts.demo) {
      demo = await seedDemo(app.db);
      app.loadShedding.restartLagSampling();
    }
    url = urlOf(app.server.address());
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
  out(`fleet: listening on ${url}\n`);
  for (const [name, at] of app.sideListeners) out(`fleet: ${name} listener on ${at}\n`);
  if (demo) out(demoBanner(demo, url));
  // Only on the demo company: a database with someone's own company gets no simulated trucks.
  const workers = await startServerWorkers(app, {
    url,
    demoCompanyId: demo && (demo.created || demo.demo) ? demo.company.id : null,
    out,
  });

  const running: RunningServer = {
    app,
    url,
    close: async () => {
      await workers.stop();
      await app.close();
    },
  };
  if (opts.handleSignals !== false) installShutdown(running, config, out);
  return running;
}

function installShutdown(running: RunningServer, config: Config, out: (text: string) => void): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      process.stderr.write(`fleet: ${signal} again; exiting without waiting\n`);
      process.exit(1);
    }
    closing = true;
    out(`fleet: ${signal} received; shutting down (in-flight requests have ${config.shutdownGraceMs} ms)\n`);
    const timer = setTimeout(() => {
      process.stderr.write(`fleet: shutdown did not finish within ${config.shutdownGraceMs} ms; exiting\n`);
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    // The demo simulator stops (and frees its trucks) first, then the server closes.
    running.close().then(
      () => {
        clearTimeout(timer);
        out('fleet: stopped\n');
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`fleet: error while shutting down: ${(err as Error)?.message ?? err}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** `tsx src/server.ts`: serve with the environment's configuration (no demo data). */
export async function main(env: Record<string, string | undefined> = process.env): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`fleet: ${err.message}\n`);
    process.exit(1);
  }
  await serve(config);
}

function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  main().catch((err: unknown) => {
    process.stderr.write(`fleet: ${(err as Error)?.message ?? err}\n`);
    process.exit(1);
  });
}

/**
 * The `fleet` command. From a checkout: `npm run -s fleet -- <command> …`; installed: `fleet <command> …`
 * (bin/fleet.js). DATABASE_URL names the database, exactly as for the server.
 *
 * Every command that touches the database applies pending migrations first (so a fresh file works) and
 * closes the database before it returns. With --json a command prints ONE JSON object on stdout.
 * Exit codes: 0 done; 1 refused or failed (the message on stderr, or `{"error_message": …}` on stdout
 * with --json); 2 wrong usage (usage on stderr; with --json also `{"error_message": …}` on stdout).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import { openDb, type Db } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrate.js';
import { AppError } from '../http/plumbing/errors.js';
import { parseFlags, UsageError, writer, type Command, type Ctx } from './io.js';
import { apiKeyCreate, apiKeyRevoke, companyCreate, userCreate } from './records.js';
import { deviceCreate, deviceRevoke } from './devices.js';
import { vehicleCreate } from './vehicles.js';
import { simulateCommand } from './simulate.js';
import { replayCommand } from './replay.js';
import { APP_COMMANDS } from './apps.js';

const serveCommand: Command = {
  usage: 'serve [--demo]',
  summary: 'Run the API server. --demo seeds a demo fleet into an empty database and prints an API key.',
  flags: { demo: { type: 'boolean' } },
  async run(flags, ctx) {
    // Loaded on demand: the HTTP stack takes a second to import, which the other commands do not need.
    const { serve } = await import('../server.js');
    await serve(ctx.config, { demo: flags.demo === true });
    return null;
  },
};

const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'Apply pending database migrations (every command does this first).',
  flags: {},
  async run(_flags, ctx) {
    const { applied } = await ctx.database();
    const n = applied.length;
    ctx.print(
      { applied },
      n ? `Applied ${n} migration${n === 1 ? '' : 's'}: ${applied.join(', ')}` : 'The database is up to date.',
    );
    return 0;
  },
};

export const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  'company create': companyCreate,
  'user create': userCreate,
  'api-key create': apiKeyCreate,
  'api-key revoke': apiKeyRevoke,
  'vehicle create': vehicleCreate,
  'device create': deviceCreate,
  'device revoke': deviceRevoke,
  simulate: simulateCommand,
  replay: replayCommand,
  ...APP_COMMANDS,
};

export const USAGE = [
  'Usage: fleet <command> [options]',
  '',
  'Commands:',
  ...Object.values(COMMANDS).flatMap((c) => [`  fleet ${c.usage}`, `      ${c.summary}`]),
  '  fleet help',
  '      Show this text.',
  '',
  'Options:',
  '  --json        Print one JSON object on stdout (ids as "id", secrets under their own names).',
  '  -h, --help    Show this text.',
  '',
  'Environment:',
  '  DATABASE_URL  sqlite:<path> (default sqlite:./data/fleet.db) or postgres://…, as for the server.',
  '  PORT, HOST, LOG_LEVEL, SHUTDOWN_GRACE_MS, …  Server settings (serve).',
  '',
  'Exit codes: 0 done; 1 refused or failed (the message, or {"error_message": …} with --json); 2 wrong usage.',
  '',
].join('\n');

function find(argv: string[]): { command: Command; rest: string[] } | null {
  const [a, b] = argv;
  if (a !== undefined && b !== undefined && COMMANDS[`${a} ${b}`]) return { command: COMMANDS[`${a} ${b}`], rest: argv.slice(2) };
  if (a !== undefined && COMMANDS[a]) return { command: COMMANDS[a], rest: argv.slice(1) };
  return null;
}

function fail(json: boolean, message: string): number {
  if (json) process.stdout.write(`${JSON.stringify({ error_message: message })}\n`);
  else process.stderr.write(`fleet: ${message}\n`);
  return 1;
}

/** Runs one command; resolves to the exit code, or null when the process keeps running (serve). */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number | null> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0])) {
    process.stdout.write(USAGE);
    return 0;
  }
  // `fleet --json migrate` works like `fleet migrate --json`.
  const lead = argv.findIndex((a) => a !== '--json');
  if (lead > 0) argv = [...argv.slice(lead), ...argv.slice(0, lead)];
  const found = find(argv);
  let json = argv.includes('--json');
  try {
    if (!found) throw new UsageError(`unknown command: ${argv.slice(0, 2).join(' ')}`);
    const flags = parseFlags(found.rest, found.command.flags);
    json = flags.json === true;
    if (flags.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const config: Config = loadConfig(env);
    let opened: Promise<{ db: Db; applied: string[] }> | null = null;
    let db: Db | null = null;
    const database = () =>
      (opened ??= (async () => {
        db = openDb(config.databaseUrl, { poolSize: 2, sqliteSynchronous: config.sqliteSynchronous });
        return { db, applied: await migrateToLatest(db) };
      })());
    const ctx: Ctx = { config, database, json, print: writer(json) };
    try {
      return await found.command.run(flags, ctx);
    } finally {
      await (db as Db | null)?.close();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      // With --json the one object on stdout says what is wrong too; the usage text goes to stderr.
      if (json) process.stdout.write(`${JSON.stringify({ error_message: err.message })}\n`);
      process.stderr.write(`fleet: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof AppError || err instanceof ConfigError) return fail(json, err.message);
    return fail(json, (err as Error)?.message ?? String(err));
  }
}

function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Runs `main` on this process's arguments and sets the exit code (used here and by bin/fleet.js). */
export async function runCli(argv = process.argv.slice(2)): Promise<void> {
  const code = await main(argv);
  if (code !== null) process.exitCode = code;
}

if (isEntry()) await runCli();

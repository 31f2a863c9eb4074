/**
 * The `fleet` command. Installed or from a checkout: `fleet <command> …` (bin/fleet.js, which runs the
 * compiled dist/ when it is current), or `npm run -s fleet -- <command> …`. DATABASE_URL names the
 * database, exactly as for the server.
 *
 * Every command that touches the database applies pending migrations first (so a fresh file works) and
 * closes the database before it returns. With --json a command prints ONE JSON object on stdout.
 * Exit codes: 0 done; 1 refused or failed (the message on stderr, or `{"error_message": …}` on stdout
 * with --json); 2 wrong usage (the command's usage on stderr; with --json also `{"error_message": …}`
 * on stdout).
 *
 * A command is one entry of COMMANDS below. Its module imports its services inside `run`, not at the
 * top, so that `--help` and usage errors stay fast (src/cli/io.ts; test/cli/startup.test.ts).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFlags, UsageError, writer, type Command, type Ctx } from './io.js';
import { commandHelp, completionScript, groupHelp, overview, unknownBlock, usageBlock } from './help.js';
import type { Db } from '../storage/db.js';
import { COMPANY_COMMANDS } from './companies.js';
import { USER_COMMANDS } from './users.js';
import { API_KEY_COMMANDS } from './api-keys.js';
import { VEHICLE_COMMANDS } from './vehicles.js';
import { DEVICE_COMMANDS } from './devices.js';
import { simulateCommand } from './simulate.js';
import { replayCommand } from './replay.js';
import { retentionCommand } from './retention.js';
import { APP_COMMANDS } from './apps.js';
import { demoCredentials } from './demo.js';
import { BACKUP_COMMANDS } from './backup.js';

const serveCommand: Command = {
  usage: 'serve [--demo]',
  summary: 'Run the API server. --demo seeds a demo fleet into an empty database and prints an API key.',
  details: [
    'Settings come from the environment (README.md, Configuration); the server applies pending migrations first.',
  ],
  flags: { demo: { type: 'boolean' } },
  async run(flags, ctx) {
    // The geography indexes are built on a worker thread from here, while this thread imports the HTTP
    // stack: loaded on demand, since it takes a second to import and the other commands do not need it.
    const { warmGeography } = await import('../telemetry/geocode/warm.js');
    const geography = warmGeography();
    const { serve } = await import('../server.js');
    await serve(ctx.config, { demo: flags.demo === true, geography });
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

const completionCommand: Command = {
  usage: 'completion [--shell bash|zsh]',
  summary: 'Print a shell completion script for fleet (commands and their flags); bash by default.',
  details: [
    'Load it in the running shell with `source <(fleet completion)`, or for good: `fleet completion >> ~/.bashrc`.',
  ],
  flags: { shell: { type: 'string' } },
  async run(flags) {
    const shell = flags.shell ?? 'bash';
    if (shell !== 'bash' && shell !== 'zsh') throw new UsageError('--shell must be bash or zsh');
    process.stdout.write(completionScript(COMMANDS, shell));
    return 0;
  },
};

export const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  ...COMPANY_COMMANDS,
  ...USER_COMMANDS,
  ...API_KEY_COMMANDS,
  ...VEHICLE_COMMANDS,
  ...DEVICE_COMMANDS,
  simulate: simulateCommand,
  replay: replayCommand,
  retention: retentionCommand,
  'demo credentials': demoCredentials,
  ...APP_COMMANDS,
  ...BACKUP_COMMANDS,
  completion: completionCommand,
};

export const USAGE = overview(COMMANDS);

function find(argv: string[]): { name: string; command: Command; rest: string[] } | null {
  const [a, b] = argv;
  if (a !== undefined && b !== undefined && COMMANDS[`${a} ${b}`])
    return { name: `${a} ${b}`, command: COMMANDS[`${a} ${b}`], rest: argv.slice(2) };
  if (a !== undefined && COMMANDS[a]) return { name: a, command: COMMANDS[a], rest: argv.slice(1) };
  return null;
}

const isGroup = (word: string | undefined) =>
  word !== undefined && Object.keys(COMMANDS).some((n) => n.startsWith(`${word} `));
const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** `fleet help [command…]`, `fleet --help`, `fleet <group> --help`, `fleet <command> --help`; null if not a help request. */
function help(argv: string[]): string | null {
  if (argv.length === 0 || ['--help', '-h'].includes(argv[0])) return USAGE;
  const topic =
    argv[0] === 'help'
      ? argv.slice(1).filter((a) => !a.startsWith('-'))
      : wantsHelp(argv)
        ? argv.filter((a) => !a.startsWith('-'))
        : null;
  if (topic === null) return null;
  const found = find(topic);
  if (found) return commandHelp(found.name, found.command);
  if (isGroup(topic[0]) && topic.length === 1) return groupHelp(topic[0], COMMANDS);
  return topic.length === 0 ? USAGE : null;
}

function fail(json: boolean, message: string): number {
  if (json) process.stdout.write(`${JSON.stringify({ error_message: message })}\n`);
  else process.stderr.write(`fleet: ${message}\n`);
  return 1;
}

/** Runs one command; resolves to the exit code, or null when the process keeps running (serve). */
export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number | null> {
  // `fleet --json migrate` works like `fleet migrate --json`.
  const lead = argv.findIndex((a) => a !== '--json');
  if (lead > 0) argv = [...argv.slice(lead), ...argv.slice(0, lead)];
  const text = help(argv);
  if (text !== null) {
    process.stdout.write(text);
    return 0;
  }
  const found = find(argv);
  let json = argv.includes('--json');
  try {
    if (!found) {
      const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
      if (words.length === 0) throw new UsageError('a command is required');
      if (isGroup(words[0]) && words.length === 1) throw new UsageError(`${words[0]} needs a command`);
      throw new UsageError(`unknown command: ${words.join(' ')}`);
    }
    const flags = parseFlags(found.rest, found.command.flags);
    json = flags.json === true;
    const { loadConfig } = await import('../config/index.js');
    const config = loadConfig(env);
    let opened: Promise<{ db: Db; applied: string[] }> | null = null;
    let db: Db | null = null;
    const database = () =>
      (opened ??= (async () => {
        const [{ openDb }, { migrateToLatest }] = await Promise.all([
          import('../storage/db.js'),
          import('../storage/migrate.js'),
        ]);
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
      // The message first, then only this command's usage (or the group's); with --json the one
      // object on stdout says what is wrong too.
      if (json) process.stdout.write(`${JSON.stringify({ error_message: err.message })}\n`);
      process.stderr.write(
        `fleet: ${err.message}\n${
          found
            ? usageBlock(found.name, found.command)
            : unknownBlock(
                argv.find((a) => !a.startsWith('-')),
                COMMANDS,
              )
        }`,
      );
      return 2;
    }
    // Refused (AppError), bad configuration (ConfigError) or failed: the message says which.
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

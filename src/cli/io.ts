/** What every `fleet` command shares: its context, flag parsing, output, and the usage error. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config/index.js';
import type { Db } from '../storage/db.js';
import { notFound } from '../http/plumbing/errors.js';

/** Wrong usage: unknown command or flag, missing or malformed flag. Exit code 2, usage on stderr. */
export class UsageError extends Error {}

export type Flags = Record<string, string | boolean | undefined>;
export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

export interface Ctx {
  config: Config;
  /**
   * Opens the database and applies pending migrations, once; main closes it after the command.
   * Commands check their flags first, so wrong usage never touches the database.
   */
  database(): Promise<{ db: Db; applied: string[] }>;
  json: boolean;
  /** Prints `record` as one JSON line with --json, else the human `line`. */
  print(record: Record<string, unknown>, line: string): void;
}

export interface Command {
  /** The synopsis for the help text, e.g. `company create --name NAME`. */
  usage: string;
  /** One line saying what it does. */
  summary: string;
  flags: FlagSpec;
  /** Resolves to an exit code, or to null when the process must keep running (serve). */
  run(flags: Flags, ctx: Ctx): Promise<number | null>;
}

export const GLOBAL_FLAGS: FlagSpec = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export function parseFlags(args: string[], spec: FlagSpec): Flags {
  try {
    const { values } = parseArgs({ args, options: { ...GLOBAL_FLAGS, ...spec }, strict: true, allowPositionals: false });
    return values as Flags;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function requireFlag(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v;
}

/** A flag that may be left out; given, it must say something (`--vehicle ""` is a mistake, not "every vehicle"). */
export function optionalFlag(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  if (typeof v !== 'string') return undefined;
  if (v.trim() === '') throw new UsageError(`--${name} must not be empty`);
  return v;
}

export function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

export type CompanyRef = { id: number } | { code: string };

/** `--company` takes the integer id (`1`) or the company code (`FP0000001`). */
export function companyRef(value: string): CompanyRef {
  const v = value.trim();
  if (/^\d+$/.test(v)) return { id: positiveInt(v, 'company') };
  if (/^[A-Za-z]{2}\d+$/.test(v)) return { code: v.toUpperCase() };
  throw new UsageError(`--company must be a company id (1) or code (FP0000001), got "${value}"`);
}

export async function findCompany(db: Db, ref: CompanyRef): Promise<{ id: number; company_code: string; name: string }> {
  const q = db.kysely.selectFrom('companies').select(['id', 'company_code', 'name']);
  const row = await ('id' in ref ? q.where('id', '=', ref.id) : q.where('company_code', '=', ref.code)).executeTakeFirst();
  if (!row) throw notFound(`company ${'id' in ref ? ref.id : ref.code}`);
  return row;
}

export function writer(json: boolean): Ctx['print'] {
  return (record, line) => {
    process.stdout.write(json ? `${JSON.stringify(record)}\n` : `${line}\n`);
  };
}

/**
 * What every `fleet` command shares: its context, flag parsing, output, and the usage error.
 *
 * Keep the command modules light: `fleet --help` and every usage error load all of them, so they import
 * only this file, ./format.js, ./secret.js, node: modules and types at the top, and load the services they
 * run (and with them the database stack) inside `run`, with `await import(…)`. test/cli/startup.test.ts checks it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config/index.js';
import type { Db } from '../storage/db.js';
import { notFound } from '../core/errors.js';

/** Wrong usage: unknown command or flag, missing or malformed flag. Exit code 2, the command's usage on stderr. */
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
  /** More for `fleet <command> --help`: what the flags take, examples. */
  details?: string[];
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
    const { values } = parseArgs({
      args,
      options: { ...GLOBAL_FLAGS, ...spec },
      strict: true,
      allowPositionals: false,
    });
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

/** A flag whose value must be one of `values`, or undefined when it is left out. */
export function choiceFlag(flags: Flags, name: string, values: readonly string[]): string | undefined {
  const v = optionalFlag(flags, name);
  if (v !== undefined && !values.includes(v)) throw new UsageError(`--${name} must be one of: ${values.join(', ')}`);
  return v;
}

export function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

/** The flags of a command that sets text fields, with the longest value each may have (as the API's limits). */
export function textFlags(flags: Flags, limits: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [flag, max] of Object.entries(limits)) {
    const v = optionalFlag(flags, flag);
    if (v === undefined) continue;
    if (v.length > max) throw new UsageError(`--${flag} must be at most ${max} characters long`);
    out[flag] = v;
  }
  return out;
}

export interface Page {
  limit: number;
  offset: number;
}

/** `--limit` and `--offset` of the list commands. */
export const PAGE_FLAGS: FlagSpec = { limit: { type: 'string' }, offset: { type: 'string' } };
export const PAGE_USAGE = '[--limit N] [--offset N]';
export const PAGE_DETAILS =
  '--limit: how many rows (1 to 1000, default 100); --offset: how many to skip first (default 0).';

export function pageOf(flags: Flags): Page {
  const limit = flags.limit === undefined ? 100 : positiveInt(String(flags.limit), 'limit');
  if (limit > 1000) throw new UsageError('--limit must be at most 1000');
  const raw = flags.offset === undefined ? '0' : String(flags.offset);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--offset must be a whole number, got "${raw}"`);
  return { limit, offset: Number(raw) };
}

export type CompanyRef = { id: number } | { code: string };

/** `--company` takes the integer id (`1`) or the company code (`FP0000001`). */
export function companyRef(value: string, flag = 'company'): CompanyRef {
  const v = value.trim();
  if (/^\d+$/.test(v)) return { id: positiveInt(v, flag) };
  if (/^[A-Za-z]{2}\d+$/.test(v)) return { code: v.toUpperCase() };
  throw new UsageError(`--${flag} must be a company id (1) or code (FP0000001), got "${value}"`);
}

/**
 * What a company's list command starts with: its flags checked first (`--company`, then the command's
 * own in `own`, then `--limit` and `--offset`), then the database opened and the company found.
 */
export async function companyListing<T>(
  flags: Flags,
  ctx: Ctx,
  own: () => T,
): Promise<{ db: Db; company: { id: number; company_code: string; name: string }; page: Page; own: T }> {
  const ref = companyRef(requireFlag(flags, 'company'));
  const checked = own();
  const page = pageOf(flags);
  const { db } = await ctx.database();
  return { db, company: await findCompany(db, ref), page, own: checked };
}

export async function findCompany(
  db: Db,
  ref: CompanyRef,
): Promise<{ id: number; company_code: string; name: string }> {
  const { companyByRef } = await import('../domain/companies/refs.js');
  const row = await companyByRef(db.kysely, ref);
  if (!row) throw notFound(`company ${'id' in ref ? ref.id : ref.code}`);
  return row;
}

/** The flags of a command on one record of a company: `--company ID --id ID`. */
export const RECORD_FLAGS: FlagSpec = { company: { type: 'string' }, id: { type: 'string' } };

/** Checks `--company` and `--id` (before the database is touched); `open` then finds the company. */
export function recordOf(flags: Flags): { id: number; open(ctx: Ctx): Promise<{ db: Db; companyId: number }> } {
  const ref = companyRef(requireFlag(flags, 'company'));
  const id = positiveInt(requireFlag(flags, 'id'), 'id');
  return {
    id,
    async open(ctx) {
      const { db } = await ctx.database();
      return { db, companyId: (await findCompany(db, ref)).id };
    },
  };
}

export function writer(json: boolean): Ctx['print'] {
  return (record, line) => {
    process.stdout.write(json ? `${JSON.stringify(record)}\n` : `${line}\n`);
  };
}

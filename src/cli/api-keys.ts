/** `fleet api-key …`: create, revoke, list and show a company's API keys (src/auth/api-keys.ts). */
import {
  companyListing,
  companyRef,
  findCompany,
  optionalFlag,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  positiveInt,
  requireFlag,
  type Command,
} from './io.js';
import { printListing, printRecord } from './format.js';
import { wireTime } from '../storage/values.js';
import type { ApiKeyRow } from '../auth/api-keys.js';

/** A key as listed and shown, its times as the API writes times. */
const keyJson = (k: ApiKeyRow) => ({ ...k, created_at: wireTime(k.created_at), revoked_at: wireTime(k.revoked_at) });

export const apiKeyCreate: Command = {
  usage: 'api-key create --company ID [--name NAME]',
  summary: 'Create an API key for a company; the key is printed once and stored hashed.',
  flags: { company: { type: 'string' }, name: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const { createApiKey } = await import('../auth/api-keys.js');
    const key = await createApiKey(db, company.id, optionalFlag(flags, 'name') ?? 'default');
    ctx.print(
      { id: key.id, company_id: key.company_id, name: key.name, api_key: key.api_key },
      `Created API key ${key.id} "${key.name}" for company ${key.company_id}. It is shown only this once:\n${key.api_key}`,
    );
    return 0;
  },
};

export const apiKeyRevoke: Command = {
  usage: 'api-key revoke --id ID',
  summary: 'Revoke an API key; requests with it get 401 from then on.',
  flags: { id: { type: 'string' } },
  async run(flags, ctx) {
    const id = positiveInt(requireFlag(flags, 'id'), 'id');
    const { db } = await ctx.database();
    const { getApiKey, revokeApiKey } = await import('../auth/api-keys.js');
    await getApiKey(db, id);
    // Revoking an already revoked key is not an error: the key is revoked either way.
    await revokeApiKey(db, id);
    ctx.print({ id, revoked: true }, `Revoked API key ${id}`);
    return 0;
  },
};

export const apiKeyList: Command = {
  usage: `api-key list --company ID [--revoked] ${PAGE_USAGE}`,
  summary: "List a company's API keys (their names and first characters; a key itself is shown only when created).",
  details: [
    '--revoked: the revoked keys too.',
    PAGE_DETAILS,
    'With --json: {"api_keys": [{"id", "company_id", "name", "key_prefix", "created_at", "revoked_at"}, ...], "total": N}.',
  ],
  flags: { company: { type: 'string' }, revoked: { type: 'boolean' }, ...PAGE_FLAGS },
  async run(flags, ctx) {
    const { db, company, page } = await companyListing(flags, ctx, () => null);
    const { listApiKeys } = await import('../auth/api-keys.js');
    const { rows, total } = await listApiKeys(
      db,
      company.id,
      { revoked: flags.revoked === true },
      page.limit,
      page.offset,
    );
    printListing(ctx, {
      name: 'api_keys',
      rows,
      total,
      page,
      json: keyJson,
      none: `No ${flags.revoked ? '' : 'working '}API key in company ${company.id}.`,
      header: ['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'],
      cells: (k) => [k.id, k.name, `${k.key_prefix}…`, wireTime(k.created_at), wireTime(k.revoked_at)],
    });
    return 0;
  },
};

export const apiKeyShow: Command = {
  usage: 'api-key show --id ID',
  summary: 'Show one API key: its company, name, first characters and dates.',
  flags: { id: { type: 'string' } },
  async run(flags, ctx) {
    const id = positiveInt(requireFlag(flags, 'id'), 'id');
    const { db } = await ctx.database();
    const { getApiKey } = await import('../auth/api-keys.js');
    printRecord(ctx, keyJson(await getApiKey(db, id)));
    return 0;
  },
};

export const API_KEY_COMMANDS: Record<string, Command> = {
  'api-key create': apiKeyCreate,
  'api-key revoke': apiKeyRevoke,
  'api-key list': apiKeyList,
  'api-key show': apiKeyShow,
};

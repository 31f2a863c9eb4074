/** `fleet company …`: create, list and show the companies (tenants). */
import {
  companyRef,
  findCompany,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  requireFlag,
  type Command,
} from './io.js';
import { printListing, printRecord } from './format.js';

/** The company as GET /v1/companies shows it. */
async function wire() {
  return (await import('../wire/company.js')).companyWire;
}

export const companyCreate: Command = {
  usage: 'company create --name NAME',
  summary: 'Create a company (a tenant).',
  flags: { name: { type: 'string' } },
  async run(flags, ctx) {
    const name = requireFlag(flags, 'name');
    const { db } = await ctx.database();
    const { createCompany } = await import('../domain/companies/service.js');
    const c = await createCompany(db, { name });
    ctx.print(
      { id: c.id, company_id: c.company_code, name: c.name },
      `Created company ${c.id} (${c.company_code}) "${c.name}"`,
    );
    return 0;
  },
};

export const companyList: Command = {
  usage: `company list ${PAGE_USAGE}`,
  summary: 'List the companies.',
  details: [PAGE_DETAILS, 'With --json: {"companies": [...], "total": N}, each company as GET /v1/companies shows it.'],
  flags: PAGE_FLAGS,
  async run(flags, ctx) {
    const page = pageOf(flags);
    const { db } = await ctx.database();
    const { listCompanies } = await import('../domain/companies/service.js');
    const { rows, total } = await listCompanies(db, page.limit, page.offset);
    const companyWire = await wire();
    printListing(ctx, {
      name: 'companies',
      rows,
      total,
      page,
      json: companyWire,
      none: 'No company yet: fleet company create --name NAME makes one.',
      header: ['ID', 'CODE', 'NAME', 'TIME ZONE', 'CREATED'],
      cells: (c) => [c.id, c.company_code, c.name, c.time_zone, companyWire(c).created_at],
    });
    return 0;
  },
};

export const companyShow: Command = {
  usage: 'company show --id ID',
  summary: 'Show one company.',
  details: ['ID: the company id (1) or code (FP0000001).', 'With --json: the company as GET /v1/companies shows it.'],
  flags: { id: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'id'), 'id');
    const { db } = await ctx.database();
    const { getCompany } = await import('../domain/companies/service.js');
    const company = await getCompany(db, (await findCompany(db, ref)).id);
    printRecord(ctx, (await wire())(company));
    return 0;
  },
};

export const COMPANY_COMMANDS: Record<string, Command> = {
  'company create': companyCreate,
  'company list': companyList,
  'company show': companyShow,
};

/** /v1/companies: the caller's own company, as a one-element list (scope companies.read). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { getCompany } from '../../../domain/companies/service.js';
import { Company, companyWire } from '../../../wire/company.js';

export async function companiesRoutes(app: Api) {
  app.get(
    '/v1/companies',
    {
      config: { scope: 'companies.read' },
      schema: {
        tags: ['companies'],
        summary: "The caller's company (one element)",
        querystring: Type.Object(pageQuery),
        response: { 200: listSchema('companies', 'company', Company), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const company = await getCompany(app.db, req.auth.companyId);
      const items = page.page_no === 1 ? [companyWire(company)] : [];
      return listBody('companies', 'company', items, page, 1);
    },
  );
}

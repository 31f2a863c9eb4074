/**
 * /v1/forms (scope forms.read) and /v1/form_entries, /v2/form_entries (scope form_entries.read).
 * Form entries filter by dispatch_ids, driver_ids and vehicle_ids (any array syntax) and by an optional
 * window of days, start_date..end_date (inclusive, days of the X-Time-Zone zone), at most 3 months.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { badRequest, validation } from '../../../core/errors.js';
import { dayWindow, requestTimeZone, startOfDay } from '../../../core/time-zone.js';
import { IdList } from '../../../wire/types.js';
import {
  Form,
  FormEntry,
  FormEntryV1,
  formEntryV1Wire,
  formEntryWire,
  formWire,
} from '../../../wire/dispatch-forms.js';
import * as forms from '../../../domain/dispatch/forms.js';

const Day = (description: string) => Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description }));

const EntryQuery = Type.Object({
  ...pageQuery,
  dispatch_ids: IdList('Entries submitted for these dispatches'),
  driver_ids: IdList('Entries submitted by these drivers'),
  vehicle_ids: IdList('Entries submitted in these vehicles'),
  start_date: Day('First day (YYYY-MM-DD) of submission, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD) of submission, inclusive; at most 3 months after start_date'),
});

const FormList = listSchema('forms', 'form', Form);
const ENTRY_SHAPES = {
  1: { list: listSchema('form_entries', 'form_entry', FormEntryV1), wire: formEntryV1Wire },
  2: { list: listSchema('form_entries', 'form_entry', FormEntry), wire: formEntryWire },
} as const;

function validDay(field: string, v: string): void {
  const d = new Date(`${v}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v)
    throw validation(field, `is not a valid date (${v})`);
}

/** The submission window of the query, if any; a range over 3 months is refused. */
export function entryWindow(q: { start_date?: string; end_date?: string }, zone: string) {
  if (q.start_date) validDay('start_date', q.start_date);
  if (q.end_date) validDay('end_date', q.end_date);
  if (q.start_date && q.end_date) {
    if (q.end_date < q.start_date) throw validation('end_date', 'must not be before start_date');
    const limit = new Date(`${q.start_date}T00:00:00Z`);
    limit.setUTCMonth(limit.getUTCMonth() + 3);
    if (new Date(`${q.end_date}T00:00:00Z`) > limit) throw badRequest('Date range cannot be greater than 3 months');
    return dayWindow(q.start_date, q.end_date, zone);
  }
  if (q.start_date) return { start: startOfDay(q.start_date, zone), end: new Date('9999-12-31T00:00:00Z') };
  if (q.end_date) return { start: new Date(0), end: dayWindow(q.end_date, q.end_date, zone).end };
  return undefined;
}

export async function formsRoutes(app: Api) {
  app.get(
    '/v1/forms',
    {
      config: { scope: 'forms.read' },
      schema: {
        tags: ['forms'],
        summary: 'List dispatch forms (templates: integer id, UUID form_id, definition, external ids)',
        querystring: Type.Object(pageQuery),
        response: { 200: FormList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await forms.listForms(app.db, req.auth, page.per_page, page.offset);
      return listBody('forms', 'form', rows.map(formWire), page, total);
    },
  );

  for (const version of [1, 2] as const) {
    const shape = ENTRY_SHAPES[version];
    app.get(
      `/v${version}/form_entries`,
      {
        config: { scope: 'form_entries.read' },
        schema: {
          tags: ['form_entries'],
          summary: `List form entries (v${version}: form_id is the form's ${version === 1 ? 'integer id' : 'UUID'})`,
          querystring: EntryQuery,
          response: { 200: shape.list, ...errorResponses },
        },
      },
      async (req) => {
        const page = pageOf(req.query);
        const window = entryWindow(req.query, requestTimeZone(req));
        const { rows, total } = await forms.listFormEntries(
          app.db,
          req.auth,
          { ...req.query, window },
          page.per_page,
          page.offset,
        );
        return listBody(
          'form_entries',
          'form_entry',
          rows.map((r) => shape.wire(r)),
          page,
          total,
        );
      },
    );
  }
}

/**
 * GET /v1/hos_violations (scope hos_logs.hos_violation): violations whose start_time lies in
 * [min_start_time, max_start_time], by default the last 24 hours. A day (YYYY-MM-DD) is read in the
 * X-Time-Zone zone; as max_start_time it includes the whole day. Ordered by start_time, then id.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { validation } from '../../../core/errors.js';
import { IdList, StrList } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { HosViolation, hosViolationWire } from '../../../wire/hos.js';
import { listViolations } from '../../../domain/hos/queries.js';
import { Moment } from '../../../core/schema.js';

const DAY_MS = 86_400_000;

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Violations of these drivers'),
  violation_types: StrList('Only these types, e.g. driving_11, duty_14, break_30, cycle_70'),
  min_start_time: Type.Optional(Moment('Earliest start_time (day or datetime); default 24 hours ago')),
  max_start_time: Type.Optional(Moment('Latest start_time (day or datetime); default now')),
});

export async function hosViolationsRoutes(app: Api) {
  app.get(
    '/v1/hos_violations',
    {
      config: { scope: 'hos_logs.hos_violation' },
      schema: {
        tags: ['hours_of_service'],
        summary: 'Hours-of-service violations (docs/hos.md lists the types)',
        querystring: Query,
        response: { 200: listSchema('hos_violations', 'hos_violation', HosViolation), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const page = pageOf(q);
      const zone = requestTimeZone(req);
      const now = Date.now();
      const min = q.min_start_time ? momentOf('min_start_time', q.min_start_time, zone).getTime() : now - DAY_MS;
      let max = now + 1;
      if (q.max_start_time) {
        const m = momentOf('max_start_time', q.max_start_time, zone).getTime();
        max =
          q.max_start_time.length === 10
            ? momentOf('max_start_time', nextDay(q.max_start_time), zone).getTime()
            : m + 1;
      }
      if (max <= min) throw validation('max_start_time', 'must not be before min_start_time');
      const filters = { driverIds: q.driver_ids, types: q.violation_types, min, max };
      const { items, total } = await listViolations(app.db, req.auth, filters, page.per_page, page.offset, now);
      return listBody(
        'hos_violations',
        'hos_violation',
        items.map((x) => hosViolationWire(x.row, x.driver)),
        page,
        total,
      );
    },
  );
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

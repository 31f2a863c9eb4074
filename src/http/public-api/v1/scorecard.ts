/**
 * /v1/scorecard_summary (scope scorecard_summary.read): `driver_performance_rollups[].driver_performance_rollup`,
 * one per driver (driver_ids), id order, over start_date..end_date (inclusive days on the events'
 * start_time, read as /v1/driver_performance_events and /v1/speeding_events read them; default the
 * last 7 days). Counts, kilometers and the score: src/telemetry/queries/scorecard.ts and
 * docs/telemetry.md; `num_speeding_events` is our addition.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { UserSummary, userSummary } from '../../../wire/summaries.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { rounded } from '../../../wire/telemetry-common.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { scorecardSummary } from '../../../telemetry/queries/scorecard.js';
import { Day } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Only these drivers'),
  start_date: Day('First day (YYYY-MM-DD), inclusive; default 6 days before end_date'),
  end_date: Day('Last day (YYYY-MM-DD), inclusive; default today'),
});

const Rollup = Type.Object({
  num_coached_events: Type.Integer(),
  num_hard_accels: Type.Integer(),
  num_hard_brakes: Type.Integer(),
  num_hard_corners: Type.Integer(),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  total_kilometers: Type.Number(),
  driver: UserSummary,
  num_speeding_events: Type.Integer({
    description: 'Our addition: speeding events (over the policy maximum) in the window',
  }),
});

export async function scorecardRoutes(app: Api) {
  app.get(
    '/v1/scorecard_summary',
    {
      config: { scope: 'scorecard_summary.read' },
      schema: {
        tags: ['safety'],
        summary: "Each driver's safety summary and score over a window",
        querystring: Query,
        response: {
          200: listSchema('driver_performance_rollups', 'driver_performance_rollup', Rollup),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const w = dateRange(req.query, requestTimeZone(req), { defaultDays: 7 });
      const { rows, total } = await scorecardSummary(
        app.db,
        req.auth,
        w,
        req.query.driver_ids,
        page.per_page,
        page.offset,
      );
      const items = rows.map(({ driver, km, counts: c, score }) => ({
        num_coached_events: c.coached,
        num_hard_accels: c.hard_accel,
        num_hard_brakes: c.hard_brake,
        num_hard_corners: c.hard_corner,
        score,
        total_kilometers: rounded(km, 2) ?? 0,
        driver: userSummary(driver),
        num_speeding_events: c.speeding,
      }));
      return listBody('driver_performance_rollups', 'driver_performance_rollup', items, page, total);
    },
  );
}

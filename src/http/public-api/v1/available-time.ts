/** GET /v1/available_time (scope hos_logs.available_time): each driver's remaining time, in seconds. */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { AvailableTimeUser, availableTimeWire } from '../../../wire/hos.js';
import { availableTime } from '../../../domain/hos/queries.js';

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('These drivers (any status); default every active driver'),
});

export async function availableTimeRoutes(app: Api) {
  app.get(
    '/v1/available_time',
    {
      config: { scope: 'hos_logs.available_time' },
      schema: {
        tags: ['hours_of_service'],
        summary: "Drivers' available drive, shift, cycle and break time in seconds, with the cycle recap (docs/hos.md)",
        querystring: Query,
        response: { 200: listSchema('users', 'user', AvailableTimeUser), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { items, total } = await availableTime(
        app.db,
        req.auth,
        req.query.driver_ids,
        page.per_page,
        page.offset,
        Date.now(),
      );
      return listBody('users', 'user', items.map(availableTimeWire), page, total);
    },
  );
}

/**
 * Dispatches in the console (a group-limited manager: the dispatches of their drivers and vehicles):
 *   GET  /console/dispatches                        the board
 *   GET  /console/dispatches/new, POST /console/dispatches           a new dispatch with its stops
 *   GET  /console/dispatches/:vendorId/edit, POST /console/dispatches/:vendorId   edit one while planned
 *   POST /console/dispatches/:vendorId/status       activate (cancel and complete as well, for a client
 *                                                   of the form; the board asks to confirm those first)
 *   GET, POST /console/dispatches/:vendorId/cancel|complete   the confirmation step, then the change
 * A form becomes the body of `POST/PUT /v1/dispatches`, is checked against that route's own schema with
 * the API's messages, and goes through the same service (the state machine, the one active dispatch per
 * driver, the `dispatch_upserted` and `dispatch_status_changed` webhooks).
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import { createDispatch, listDispatches, updateDispatch, type DispatchView } from '../../domain/dispatch/service.js';
import { DISPATCH_STATUSES, type DispatchStatus } from '../../domain/dispatch/state-machine.js';
import { CreateBody, UpdateBody, dispatchInput, type DispatchBody } from '../../domain/dispatch/input.js';
import { field, fields } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, send } from './forms.js';
import { apiBodyCheck } from './body-check.js';
import { assertDispatchVisible, boardDispatches } from './data/data.js';
import { boardPage, dispatchPath } from './views/dispatch-board.js';
import { dispatchFormPage, type DispatchFormView } from './views/dispatch-form.js';
import { confirmPage } from './views/forms.js';
import { zoneOf } from './data/devices-data.js';
import {
  STOP_FIELDS,
  assertChoosable,
  blankStop,
  dispatchBody,
  dispatchChoices,
  newDispatchVendorId,
  valuesOfDispatch,
  type DispatchValues,
  type StopValues,
} from './data/dispatch-data.js';

/** The board's notice after a change; only these words, never text from the URL. */
const DONE: Record<string, string> = Object.fromEntries(DISPATCH_STATUSES.map((s) => [s, `The dispatch is now ${s}.`]));
const EDITED: Record<string, (vid: string) => string> = {
  created: (vid) => `Dispatch ${vid} was created.`,
  saved: (vid) => `Changes to ${vid} were saved.`,
};

const ENDINGS = {
  cancel: {
    status: 'cancelled',
    title: (vid: string) => `Cancel dispatch ${vid}?`,
    explanation:
      'The dispatch ends here and cannot change again: its driver no longer has it, and a cancelled dispatch cannot be reopened. The API shows it with status "cancelled".',
    button: 'Cancel the dispatch',
  },
  complete: {
    status: 'completed',
    title: (vid: string) => `Complete dispatch ${vid}?`,
    explanation:
      'The dispatch is marked done now, whatever its stops say, and cannot change again. The API shows it with status "completed".',
    button: 'Complete the dispatch',
  },
} as const;

/** The rows of the stops as typed (each row sends every field, so the lists line up). */
function stopsOfForm(body: unknown): StopValues[] {
  const columns = Object.fromEntries(STOP_FIELDS.map((k) => [k, fields(body, `stop_${k}`)]));
  const n = Math.max(...STOP_FIELDS.map((k) => columns[k].length));
  return Array.from({ length: n }, (_, i) => {
    const row = blankStop();
    for (const k of STOP_FIELDS) row[k] = columns[k][i] ?? '';
    return row;
  });
}

const valuesOfForm = (body: unknown): DispatchValues => ({
  vendor_id: (field(body, 'vendor_id') ?? '').trim(),
  driver_id: field(body, 'driver_id') ?? '',
  vehicle_id: field(body, 'vehicle_id') ?? '',
  stops: stopsOfForm(body),
});

/** "Add a stop" puts an empty row before the delivery; "Remove" takes a row between out; null: save. */
function stepOf(body: unknown, values: DispatchValues): DispatchValues | null {
  const step = field(body, 'step') ?? 'save';
  const stops = [...values.stops];
  while (stops.length < 2) stops.push(blankStop());
  if (step === 'add') stops.splice(stops.length - 1, 0, blankStop());
  else if (/^remove-\d{1,3}$/.test(step)) {
    const i = Number(step.slice(7));
    if (i > 0 && i < stops.length - 1) stops.splice(i, 1);
  } else return null;
  return { ...values, stops };
}

export async function consoleDispatchRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const createBody = apiBodyCheck<DispatchBody>(CreateBody(1), 'POST', '/v1/dispatches');
  const updateBody = apiBodyCheck<DispatchBody>(UpdateBody(1), 'PUT', '/v1/dispatches');

  async function board(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    extra: { error?: string; notice?: string } = {},
  ) {
    const dispatches = await boardDispatches(app.db, who.viewer);
    return send(reply, status, boardPage({ user: who.user, csrf: who.csrf, dispatches, ...extra }));
  }

  /** The visible dispatch named by vendor_id, or 404. */
  async function visible(who: ConsoleCaller, vendorId: string): Promise<DispatchView> {
    await assertDispatchVisible(app.db, who.viewer, vendorId);
    return (await listDispatches(app.db, who.viewer, { vendor_ids: [vendorId] }, 1, 0)).views[0];
  }

  async function showForm(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    v: Pick<DispatchFormView, 'editing' | 'values' | 'error' | 'notice'>,
  ) {
    const [choices, zone] = await Promise.all([
      dispatchChoices(app.db, who.viewer),
      zoneOf(app.db, who.viewer.companyId),
    ]);
    return send(reply, status, dispatchFormPage({ user: who.user, csrf: who.csrf, choices, zone, ...v }));
  }

  /** Only a planned dispatch is edited here (an active one's driver, vehicle and stops are fixed). */
  const notPlanned = (d: DispatchView) =>
    new AppError(
      'invalid_state',
      `dispatch "${d.row.vendor_id}": only a planned dispatch can be edited; it is ${d.status}`,
    );

  app.get('/console/dispatches', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return board(reply, who, 200, { notice: DONE[field(req.query, 'done') ?? ''] });
  });

  app.get('/console/dispatches/new', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const values = { vendor_id: '', driver_id: '', vehicle_id: '', stops: [blankStop(), blankStop()] };
    return showForm(reply, who, 200, { values });
  });

  app.post('/console/dispatches', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const values = valuesOfForm(req.body);
    const redrawn = stepOf(req.body, values);
    if (redrawn) return showForm(reply, who, 200, { values: redrawn });
    let vendorId = values.vendor_id;
    try {
      assertChoosable(who.viewer, values);
      vendorId ||= newDispatchVendorId();
      const zone = await zoneOf(app.db, who.viewer.companyId);
      const body = createBody(dispatchBody({ ...values, vendor_id: vendorId }, zone, false));
      await createDispatch(app.db, who.viewer, dispatchInput(body));
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { values, error: refused.message });
    }
    return reply.redirect(`${dispatchPath(vendorId)}/edit?done=created`, 303);
  });

  app.get<{ Params: { vendorId: string } }>('/console/dispatches/:vendorId/edit', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const d = await visible(who, req.params.vendorId);
    if (d.status !== 'planned') return board(reply, who, 400, { error: notPlanned(d).message });
    const zone = await zoneOf(app.db, who.viewer.companyId);
    const notice = EDITED[field(req.query, 'done') ?? '']?.(req.params.vendorId);
    return showForm(reply, who, 200, { editing: req.params.vendorId, values: valuesOfDispatch(d, zone), notice });
  });

  app.post<{ Params: { vendorId: string } }>('/console/dispatches/:vendorId', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const vendorId = req.params.vendorId;
    const d = await visible(who, vendorId);
    const values = { ...valuesOfForm(req.body), vendor_id: vendorId };
    const redrawn = stepOf(req.body, values);
    if (redrawn) return showForm(reply, who, 200, { editing: vendorId, values: redrawn });
    try {
      if (d.status !== 'planned') throw notPlanned(d);
      assertChoosable(who.viewer, values);
      const zone = await zoneOf(app.db, who.viewer.companyId);
      const body = updateBody(dispatchBody(values, zone, true));
      await updateDispatch(app.db, who.viewer, vendorId, dispatchInput(body));
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { editing: vendorId, values, error: refused.message });
    }
    return reply.redirect(`${dispatchPath(vendorId)}/edit?done=saved`, 303);
  });

  /** A change of status through the service; a refusal is shown on the board with the API's message. */
  async function setStatus(reply: FastifyReply, who: ConsoleCaller, vendorId: string, status: DispatchStatus) {
    try {
      await assertDispatchVisible(app.db, who.viewer, vendorId);
      await updateDispatch(app.db, who.viewer, vendorId, { status });
    } catch (err) {
      const refused = formRefusal(err);
      return board(reply, who, refused.status, { error: refused.message });
    }
    return reply.redirect(`/console/dispatches?done=${status}`, 303);
  }

  app.post<{ Params: { vendorId: string } }>('/console/dispatches/:vendorId/status', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const status = field(req.body, 'status');
    if (status !== 'active' && status !== 'cancelled' && status !== 'completed') {
      return board(reply, who, 400, { error: 'status must be one of active, cancelled, completed' });
    }
    return setStatus(reply, who, req.params.vendorId, status);
  });

  for (const [verb, ending] of Object.entries(ENDINGS)) {
    const path = `/console/dispatches/:vendorId/${verb}`;
    app.get<{ Params: { vendorId: string } }>(path, hide, async (req, reply) => {
      const who = await signedIn(req, reply);
      if (!who) return reply;
      const vendorId = req.params.vendorId;
      const d = await visible(who, vendorId);
      if (d.status === ending.status) return reply.redirect(`/console/dispatches?done=${d.status}`, 303);
      const page = confirmPage({
        user: who.user,
        csrf: who.csrf,
        section: 'dispatches',
        title: ending.title(vendorId),
        explanation: ending.explanation,
        action: `${dispatchPath(vendorId)}/${verb}`,
        button: ending.button,
        cancelHref: '/console/dispatches',
        danger: verb === 'cancel',
        back: 'Keep it',
      });
      return send(reply, 200, page);
    });

    app.post<{ Params: { vendorId: string } }>(path, hide, async (req, reply) => {
      const who = await consoleFormCaller(app, req);
      return setStatus(reply, who, req.params.vendorId, ending.status);
    });
  }
}

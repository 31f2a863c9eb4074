/**
 * Shared pieces of the console's management tests: a signed-in console user with the company's API
 * next to it, the vehicle and the message the API answers, and where a message stands on a page.
 */
import assert from 'node:assert/strict';
import { PASSWORD, type Fleet, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { uniq } from '../fixtures.js';
import { createUser } from '../../../src/domain/users/service.js';
import { escapeHtml } from '../../../src/http/plumbing/html.js';
import { asCompany, consoleBrowser } from './kit.js';

export type Api = ReturnType<typeof asCompany>;

/** A console session of `email` and the API of its company, for reading back what the forms did. */
export async function consoleAndApi(t: OAuthTestApp, fleet: Fleet, email: string) {
  const c = await consoleBrowser(t, email);
  return { ...c, api: asCompany(t, fleet) };
}

export async function apiVehicle(api: Api, id: number): Promise<Record<string, any>> {
  const res = await api.call({ method: 'GET', url: `/v1/vehicles/${id}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.vehicle;
}

/** Every vehicle of the company as the API lists it, by id. */
export async function apiVehicles(api: Api): Promise<Array<Record<string, any>>> {
  const res = await api.call({ method: 'GET', url: '/v1/vehicles?per_page=100' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.vehicles.map((v: any) => v.vehicle);
}

/** What the API answers to a body: its status and error_message. */
export async function apiRefusal(api: Api, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const res = await api.call({ method, url, payload: payload as never });
  return { status: res.status, message: res.body?.error_message as string };
}

/** The refusal box of a page holds exactly this message (as HTML text). */
export function assertAlert(body: string, id: string, message: string): void {
  const m = new RegExp(`<p class="error" role="alert" id="${id}">([^<]*)</p>`).exec(body);
  assert.ok(m, `no alert #${id} on the page`);
  assert.equal(m[1], escapeHtml(message));
}

export async function createGroup(api: Api, name: string): Promise<number> {
  const res = await api.call({ method: 'POST', url: '/v1/groups', payload: { name } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.group.id;
}

/**
 * A fleet manager who sees only the vehicles and drivers of their groups (`group_visibility: limited`),
 * made a member of `groupIds`: its id and the email to sign in with (the password is PASSWORD).
 */
export async function limitedManager(t: OAuthTestApp, fleet: Fleet, api: Api, groupIds: number[] = []) {
  const email = `limited.${uniq()}@fleet.test`;
  const user = await createUser(
    t.db,
    { companyId: fleet.companyId },
    {
      role: 'fleet_user',
      email,
      password: PASSWORD,
      first_name: 'Lim',
      last_name: 'Ited',
      group_visibility: 'limited',
    },
  );
  for (const g of groupIds) {
    const res = await api.call({ method: 'POST', url: `/v1/groups/${g}/users`, payload: { ids: [user.id] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  return { id: user.id, email };
}

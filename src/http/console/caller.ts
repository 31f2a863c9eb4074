/** Who is signed in to the console: the session's fleet user and what they may see. */
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { fleetUser } from '../../auth/oauth/accounts.js';
import { viewerOf, type Viewer } from './data/data.js';
import { sessionOf } from '../plumbing/web-pages.js';

export interface ConsoleCaller {
  user: NonNullable<Awaited<ReturnType<typeof fleetUser>>>;
  csrf: string;
  viewer: Viewer;
}

/** The signed-in fleet user of a console request, or null. */
export async function consoleCaller(app: Api, req: FastifyRequest): Promise<ConsoleCaller | null> {
  const session = await sessionOf(app, req, 'fleet');
  const user = session ? await fleetUser(app.db, session.subjectId) : null;
  if (!session || !user) return null;
  return { user, csrf: session.csrf, viewer: await viewerOf(app.db, user) };
}

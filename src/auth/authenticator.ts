/**
 * A credential type (API key, OAuth bearer token, console session). The auth hook
 * (src/http/plumbing/auth.ts) asks each registered authenticator in turn for the request's credential and
 * resolves the first one found to a Principal.
 */
import type { FastifyRequest } from 'fastify';
import type { AppError } from '../core/errors.js';
import type { Principal } from '../core/context.js';
import type { Db } from '../storage/db.js';

export interface Authenticator {
  name: string;
  /** The credential this request carries for this authenticator, or null. */
  credential(req: FastifyRequest): string | null;
  /**
   * The principal, or an AppError (401) explaining why the credential is refused. Answered synchronously
   * when this process already knows the answer (a cached credential), so the auth hook needs no promise.
   */
  authenticate(db: Db, credential: string): Principal | AppError | Promise<Principal | AppError>;
}

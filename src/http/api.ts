import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Db } from '../storage/db.js';
import type { Config } from '../config/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /**
     * The listeners the app runs beside its HTTP port, by name, once they are bound (the OsmAnd
     * listener: `osmand` → its URL). Filled by the module that starts them; read for the start banner.
     */
    sideListeners: Map<string, string>;
  }
}

/** The Fastify instance as route modules see it: TypeBox schemas type the handlers. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A route module: one resource area of one API version. */
export type RouteModule = (app: Api) => Promise<void> | void;

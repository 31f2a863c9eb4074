/**
 * Compiled route schemas, kept for the life of the process and shared by every app it builds.
 *
 * Building the app is ~90 % compiling schemas: Ajv validators (validation.ts) and fast-json-stringify
 * serializers, ~1 s of CPU for the whole API. A server builds its app once, but the test suite builds
 * hundreds (one per suite and database), and paid that second for each. The compiled functions depend
 * only on their schema (and the options, the same for every app), so each distinct schema is compiled
 * once, keyed by its JSON text; a schema that cannot be written as JSON is compiled every time.
 *
 * And each is compiled on its first use, not when the app is built (`deferred`): a server that starts
 * then pays nothing for the routes no one has called yet (about 0.7 s of CPU before listening), and a
 * route's first request pays for its own schemas, a few milliseconds. `compilePending` compiles every
 * one that is still waiting, which is how test/http/plumbing/deferred-schemas.test.ts shows that every
 * schema of the API compiles.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

const MAX_ENTRIES = 10_000;

/** `compile(schema)`, once per distinct `key` text. */
export function memoized<T>(cache: Map<string, T>, key: string | null, compile: () => T): T {
  if (key === null) return compile();
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = compile();
    if (cache.size < MAX_ENTRIES) cache.set(key, hit);
  }
  return hit;
}

/** The JSON text of a schema, or null when it has none (a function, a cycle). */
export function schemaKey(prefix: string, schema: unknown): string | null {
  try {
    return `${prefix}:${JSON.stringify(schema)}`;
  } catch {
    return null;
  }
}

/** Compilations not yet run. */
const pending = new Set<() => unknown>();

/** `compile()` on the first call of the function returned, and its result kept. */
export function deferred<T>(compile: () => T): () => T {
  let result: { value: T } | null = null;
  const force = (): T => {
    if (!result) {
      result = { value: compile() };
      pending.delete(force);
    }
    return result.value;
  };
  pending.add(force);
  return force;
}

/** Runs every compilation still waiting; says how many ran. Throws the first compile error. */
export function compilePending(): number {
  const all = [...pending];
  for (const force of all) force();
  return all.length;
}

type Serializer = (data: unknown) => string;
const serializers = new Map<string, Serializer>();

/**
 * Fastify's own serializer factory (fast-json-stringify through @fastify/fast-json-stringify-compiler),
 * with its results kept: for the `schemaController.compilersFactory.buildSerializer` option.
 */
export function buildSerializer(externalSchemas: unknown, serializerOpts: unknown) {
  const build = SerializerSelector()(externalSchemas as never, serializerOpts as never);
  const shared = schemaKey('ext', [externalSchemas ?? null, serializerOpts ?? null]);
  return (route: { schema?: unknown }) =>
    memoized(serializers, shared && schemaKey(shared, route.schema), (): Serializer => {
      const serializer = deferred(() => build(route as never) as Serializer);
      return (data) => serializer()(data);
    });
}

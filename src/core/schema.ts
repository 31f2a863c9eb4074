/**
 * Schema pieces that know no route, table or object: the request bodies of the areas
 * (src/domain/<area>/input.ts), the API's queries and the wire shapes (src/wire) all build on them, so
 * they sit here, below every layer. Ids: ./ids.ts.
 */
import { Type, type TSchema } from 'typebox';

/** A value that is sent as `null` when empty (docs/reference/wire.md §2.7). */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * One of `values`: the schema is a string with that `enum`, its static type the union of the values
 * (so a service input derived from a body names them, not just `string`).
 */
export const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], description }));

/** One property schema for each of `keys`, keeping their names in the static type. */
export function each<K extends string, T extends TSchema>(keys: readonly K[], schema: (key: K) => T): { [P in K]: T } {
  return Object.fromEntries(keys.map((k) => [k, schema(k)])) as { [P in K]: T };
}

/**
 * Dates of queries and bodies (docs/reference/wire.md §9): a day is `YYYY-MM-DD`, read in the request's
 * X-Time-Zone zone (UTC without it); src/wire/record-dates.ts turns them into instants and windows.
 */
export const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** A day, or a datetime with its offset (`2019-04-23`, `2019-04-23T14:05:00Z`, `2019-04-23T09:05:00-05:00`). */
export const MOMENT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

/** An optional day parameter. */
export const Day = (description: string) => Type.Optional(Type.String({ pattern: DAY_PATTERN, description }));
/** A day or a datetime with its offset. */
export const Moment = (description: string) => Type.String({ pattern: MOMENT_PATTERN, description });

/**
 * PostgreSQL: a data-modifying statement whose answer nobody reads, sent as a common table expression
 * in front of the statement that follows it, so that the two cost one round trip instead of two. Each
 * round trip of a small device batch costs the server about as much CPU as the batch's own work
 * (docs/telemetry.md, Performance), so a statement saved is CPU saved.
 *
 * PostgreSQL runs a data-modifying WITH exactly once and to completion whether or not the main statement
 * reads it, in the same snapshot; so `first` must not touch the rows `then` touches (here: two different
 * tables), and neither may depend on the other's effect. `first`'s placeholders are renumbered to follow
 * `then`'s. SQLite has no data-modifying WITH: callers run the two apart there.
 */
import { CompiledQuery } from 'kysely';

/**
 * Combined statement texts by the texts of their two parts. The parts come from prepared statements
 * (storage/prepared.ts), whose texts are the same few strings every time, so the lookups hash nothing new.
 */
const texts = new Map<string, Map<string, string>>();

export function along<R>(first: CompiledQuery, then: CompiledQuery<R>): CompiledQuery<R> {
  let byThen = texts.get(first.sql);
  if (!byThen) texts.set(first.sql, (byThen = new Map()));
  let sql = byThen.get(then.sql);
  if (sql === undefined) {
    // Only placeholders may look like `$n`: a literal or a comment could hold one too.
    if (/'|--|\/\*/.test(first.sql))
      throw new Error(`along: cannot renumber a statement with literals or comments: ${first.sql}`);
    const shift = then.parameters.length;
    const renumbered = first.sql.replace(/\$(\d+)/g, (_, k: string) => `$${Number(k) + shift}`);
    sql = `with along as (${renumbered}) ${then.sql}`;
    byThen.set(then.sql, sql);
  }
  return CompiledQuery.raw(sql, [...then.parameters, ...first.parameters]) as CompiledQuery<R>;
}

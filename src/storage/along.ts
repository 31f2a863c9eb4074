/**
 * PostgreSQL: data-modifying statements whose answers nobody reads, sent as common table expressions in
 * front of the statement that follows them, so that they cost one round trip instead of one each. Each
 * round trip of a small device batch costs the server about as much CPU as the batch's own work
 * (docs/telemetry.md, Performance), so a statement saved is CPU saved.
 *
 * PostgreSQL runs every data-modifying WITH exactly once and to completion whether or not the main
 * statement reads it, all in the same snapshot; so no two of the statements may touch the same row (here:
 * different tables, or different keys of one), and none may depend on another's effect. The placeholders
 * of each are renumbered to follow the ones before. SQLite has no data-modifying WITH: callers run the
 * statements one by one there.
 */
import { CompiledQuery } from 'kysely';

/**
 * Combined statement texts, by the texts of their parts in order. The parts come from prepared statements
 * (storage/prepared.ts), whose texts are the same few strings every time, so the lookups hash nothing new.
 */
interface Texts {
  next: Map<string, Texts>;
  sql?: string;
}
let texts: Texts = { next: new Map() };
let kept = 0;
/** Most combined texts kept; past it they are forgotten and built again as they come (callers make a few). */
const KEPT_MAX = 64;

export function along<R>(firsts: readonly CompiledQuery[], then: CompiledQuery<R>): CompiledQuery<R> {
  if (firsts.length === 0) return then;
  let node = texts;
  for (let i = 0; i <= firsts.length; i++) {
    const sql = i < firsts.length ? firsts[i].sql : then.sql;
    let n = node.next.get(sql);
    if (!n) node.next.set(sql, (n = { next: new Map() }));
    node = n;
  }
  if (node.sql === undefined) {
    node.sql = combined(firsts, then);
    if (++kept > KEPT_MAX) {
      texts = { next: new Map() };
      kept = 0;
    }
  }
  const params = [...then.parameters];
  for (const q of firsts) params.push(...q.parameters);
  return CompiledQuery.raw(node.sql, params) as CompiledQuery<R>;
}

function combined(firsts: readonly CompiledQuery[], then: CompiledQuery): string {
  let shift = then.parameters.length;
  const ctes = firsts.map((q, i) => {
    // Only placeholders may look like `$n`: a literal or a comment could hold one too.
    if (/'|--|\/\*/.test(q.sql))
      throw new Error(`along: cannot renumber a statement with literals or comments: ${q.sql}`);
    const from = shift;
    shift += q.parameters.length;
    return `along_${i + 1} as (${q.sql.replace(/\$(\d+)/g, (_, k: string) => `$${Number(k) + from}`)})`;
  });
  return `with ${ctes.join(', ')} ${then.sql}`;
}

/**
 * A request part before its schema has checked it (a preValidation hook, a form the handler reads
 * itself): `unknown` to the type checker, and an object only if it is one.
 */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

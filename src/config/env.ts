/**
 * Reading settings from the environment: the shared parsers of every settings module. Each takes the
 * function that builds the module's configuration error, so the message names the variable.
 */
export type Env = Record<string, string | undefined>;

/** A whole number within [min, max], or `def` when unset or empty. */
export function whole(
  env: Env,
  name: string,
  def: number,
  min: number,
  max: number,
  error: (m: string) => Error,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) throw error(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw error(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** 1/true/on/yes or 0/false/off/no, or `def` when unset or empty. */
export function flag(env: Env, name: string, def: boolean, error: (m: string) => Error): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw error(`${name} must be 1 or 0 (true or false), got "${env[name]}"`);
}

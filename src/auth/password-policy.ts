/**
 * The one password policy: every way a password is set (the API's users endpoints, the CLI, the
 * developer portal's sign-up, the console) goes through `passwordProblem`. Existing passwords are not
 * re-checked at sign-in; the policy applies when a password is chosen.
 *
 * What it asks, after NIST SP 800-63B (revision 4, section 3.1.1.2, "Password Verifiers"):
 * - at least 15 characters, because a password is the only thing a user proves at sign-in here
 *   (the guideline's minimum for a password used as a single factor; 8 applies only inside
 *   multi-factor sign-in, which this server does not have);
 * - at most 200 characters (the guideline asks that at least 64 be allowed);
 * - characters counted as Unicode code points, any of them allowed, spaces included, no rule about
 *   character classes (the guideline forbids composition rules);
 * - not a commonly used password: the 49 k most common passwords of the `passwords-common` list in the
 *   `@zxcvbn-ts/language-common` npm package (MIT), compared without regard to case, nor one of them
 *   (or any run of up to 4 characters) repeated, nor containing the account's own email address, its
 *   part before the @, or its user name, when those have 6 characters or more (the guideline's
 *   "context-specific words").
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 15;
export const MAX_PASSWORD_LENGTH = 200;

let common: Set<string> | null = null;
/** The list, lower-cased, built on first use (it is decompressed from the package: ~50 ms). */
function commonPasswords(): Set<string> {
  return (common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())));
}

/** `unit` repeated at least twice makes `s`. */
function repeats(s: string, unit: string): boolean {
  return s.length >= 2 * unit.length && s.length % unit.length === 0 && unit.repeat(s.length / unit.length) === s;
}

/** Whether `s` is one listed password, or a short run or a listed password repeated. */
function isCommon(s: string): boolean {
  const list = commonPasswords();
  if (list.has(s)) return true;
  for (let n = 1; n <= s.length / 2; n++) {
    const unit = s.slice(0, n);
    if (repeats(s, unit) && (n <= 4 || list.has(unit))) return true;
  }
  return false;
}

/** Who the password is for: their own email address and user name may not be the password. */
export interface PasswordContext {
  email?: string | null;
  username?: string | null;
}

/**
 * Why `password` may not be chosen, as the end of a sentence that starts with "password" (for the
 * error message), or null when it may.
 */
export function passwordProblem(password: string, ctx: PasswordContext = {}): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long (it has ${length})`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  const lower = password.toLowerCase();
  if (isCommon(lower)) return 'is too common: it is on a list of often-used passwords; choose another';
  // Words of 6 characters or more: a short name ("admin", "jo") inside a long passphrase is no weakness.
  const own = [ctx.email, ctx.email?.split('@')[0], ctx.username].filter((w): w is string => !!w && w.length >= 6);
  if (own.some((w) => lower.includes(w.toLowerCase())))
    return "must not contain the account's email address or user name";
  return null;
}

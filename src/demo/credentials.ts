/**
 * New credentials for the demo an earlier run seeded (`fleet demo credentials`): the demo admin gets a
 * new random password and the demo company a new API key. Passwords and keys are stored only as
 * hashes, so a start that lost its banner (a busy port, a closed terminal) would otherwise leave no
 * way in. Earlier API keys keep working; the admin's earlier password does not.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../storage/db.js';
import { createApiKey } from '../auth/api-keys.js';
import { updateUser } from '../domain/users/service.js';
import { adminCompanyByEmail } from '../domain/users/sign-in.js';
import { DEMO_ADMIN_EMAIL } from './data.js';
import type { DemoCompany } from './seed.js';

export interface DemoCredentials {
  company: DemoCompany;
  adminEmail: string;
  password: string;
  apiKey: string;
}

/** A random demo password: 16 characters, the password policy's length and more (auth/password-policy.ts). */
export const newDemoPassword = () => randomBytes(12).toString('base64url');

/** New credentials for the demo company, or null when the database has none. */
export async function resetDemoCredentials(db: Db): Promise<DemoCredentials | null> {
  const admin = await adminCompanyByEmail(db.kysely, DEMO_ADMIN_EMAIL);
  if (!admin) return null;
  const password = newDemoPassword();
  // Through the users service: the same rules and the same `user updated` event as any change.
  await updateUser(db, { companyId: admin.id }, admin.user_id, { password, status: 'active' });
  const key = await createApiKey(db, admin.id, 'demo');
  return {
    company: { id: admin.id, company_code: admin.company_code, name: admin.name },
    adminEmail: DEMO_ADMIN_EMAIL,
    password,
    apiKey: key.api_key,
  };
}

/** `fleet demo credentials`: a way back into the demo when its start banner is gone (src/demo/credentials.ts). */
import { AppError } from '../core/errors.js';
import type { Command } from './io.js';

export const demoCredentials: Command = {
  usage: 'demo credentials',
  summary:
    'Set a new password for the demo admin and create a new API key for the demo company; both are printed once.',
  flags: {},
  async run(_flags, ctx) {
    const { db } = await ctx.database();
    // Loaded here, not at the top: src/cli/io.ts says why.
    const { resetDemoCredentials } = await import('../demo/credentials.js');
    const c = await resetDemoCredentials(db);
    if (!c)
      throw new AppError(
        'not_found',
        'this database has no demo company: start the server with `serve --demo` on an empty database first',
      );
    ctx.print(
      {
        company_id: c.company.id,
        company_code: c.company.company_code,
        admin_email: c.adminEmail,
        password: c.password,
        api_key: c.apiKey,
      },
      [
        `Demo "${c.company.name}" (company ${c.company.id}, ${c.company.company_code}): new credentials, shown only this once.`,
        `  Admin:     ${c.adminEmail}`,
        `  Password:  ${c.password}   (the admin's earlier password no longer works)`,
        `  API key:   ${c.apiKey}   (earlier keys keep working)`,
      ].join('\n'),
    );
    return 0;
  },
};

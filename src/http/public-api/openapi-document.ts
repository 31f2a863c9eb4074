import { buildApp } from '../../app.js';
import { loadConfig } from '../../config/index.js';

/** The OpenAPI 3.1 document as committed under docs/: generated from the route schemas. */
export async function openApiDocument(): Promise<string> {
  const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
  try {
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

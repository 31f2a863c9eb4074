import { readFileSync } from 'node:fs';
import { SCOPES } from '../../auth/scopes.js';
import type { Config } from '../../config/index.js';

/** The package's version (package.json, two levels up from src/http and from dist/http alike). */
export const PACKAGE_VERSION: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;

export function openApiInfo(_config: Config) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fleet platform API',
      // The server's own version, shown beside the title in /docs.
      version: PACKAGE_VERSION,
      description:
        'Fleet-management API, wire-compatible with the Motive (KeepTruckin) public API. ' +
        'Authenticate with `Authorization: Bearer <token>` or `X-Api-Key: <key>`.',
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey' as const, in: 'header' as const, name: 'X-Api-Key' },
        bearer: { type: 'http' as const, scheme: 'bearer' },
        // Each operation names the scope it needs (src/http/oauth/install.ts); the list is docs/scopes.md.
        oauth2: {
          type: 'oauth2' as const,
          description: 'OAuth 2.0 authorization code flow; send the access token as `Authorization: Bearer <token>`.',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: { ...SCOPES } as Record<string, string>,
            },
          },
        },
      },
    },
    security: [{ apiKey: [] as string[] }, { bearer: [] as string[] }] as Array<Record<string, string[]>>,
  };
}

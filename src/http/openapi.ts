import { SCOPES } from '../auth/scopes.js';
import type { Config } from '../config/index.js';

export function openApiInfo(_config: Config) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fleet platform API',
      version: '1.0.0',
      description:
        'Fleet-management API, wire-compatible with the Motive (KeepTruckin) public API. ' +
        'Authenticate with `Authorization: Bearer <token>` or `X-Api-Key: <key>`.',
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey' as const, in: 'header' as const, name: 'X-Api-Key' },
        bearer: { type: 'http' as const, scheme: 'bearer' },
        // Each operation names the scope it needs (src/http/oauth.ts); the list is docs/scopes.md.
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

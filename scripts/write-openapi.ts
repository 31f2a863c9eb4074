// Writes docs/openapi.json from the route schemas. test/openapi.test.ts fails when the committed copy drifts.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/http/public-api/openapi-document.js';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), await openApiDocument());
console.log('wrote docs/openapi.json');

// Writes docs/scopes.md from the scope catalogue, the scope map and the registered routes.
// test/auth/oauth/scopes.test.ts fails when the committed copy drifts.
import { writeFileSync } from 'node:fs';
import { scopesDocument } from '../src/http/oauth/scope-doc.js';

writeFileSync(new URL('../docs/scopes.md', import.meta.url), await scopesDocument());
console.log('wrote docs/scopes.md');

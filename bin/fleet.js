#!/usr/bin/env -S node --max-semi-space-size=32
// The `fleet` command (installed package binary, `npm start`, `npm run fleet`), run with the server's
// Node flags (first line; src/config/node-flags.ts). It runs the compiled JavaScript in dist/ when dist/
// is a build of src/ as it is now (scripts/build.mjs; npm builds on install and before `npm start` and
// `npm run fleet`). Otherwise — a checkout never built, or sources changed since the build — it runs
// src/ through tsx, which compiles each file as it loads: the same program, slower to start
// (docs/operations.md, Startup and build).
import { buildState } from '../scripts/build.mjs';

const state = buildState();
let cli;
if (state === 'fresh') {
  cli = await import('../dist/cli/main.js');
} else {
  if (state === 'stale') process.stderr.write('fleet: dist/ is older than src/; running src/ through tsx (npm run build compiles it again)\n');
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/main.ts');
}
await cli.runCli(process.argv.slice(2));

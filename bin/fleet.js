#!/usr/bin/env -S node --max-semi-space-size=32 --no-allocation-site-pretenuring
// The `fleet` command (installed package binary, `npm start`, `npm run fleet`), run with the server's
// Node flags (first line; src/config/node-flags.ts). It runs the compiled JavaScript in dist/ when dist/
// is a build of src/ as it is now (scripts/build.mjs; npm builds it on install). Otherwise — a checkout
// never built, or sources changed since the build — it runs src/ through tsx, which compiles each file
// as it loads: the same program, slower to start (docs/operations.md, Startup and build).
//
// `--build-if-stale` before the command (as `npm start` and `npm run fleet` give it) builds dist/ first
// when it does not match src/, in this process: a checkout then always runs its current code compiled,
// without a second Node process and npm lifecycle step for the check.
import { buildIfStale, buildState } from '../scripts/build.mjs';

let args = process.argv.slice(2);
let fresh;
if (args[0] === '--build-if-stale') {
  args = args.slice(1);
  fresh = await buildIfStale();
} else {
  const state = buildState();
  fresh = state === 'fresh';
  if (state === 'stale')
    process.stderr.write(
      'fleet: dist/ is older than src/; running src/ through tsx (npm run build compiles it again)\n',
    );
}
let cli;
if (fresh) {
  cli = await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/main.ts');
}
await cli.runCli(args);

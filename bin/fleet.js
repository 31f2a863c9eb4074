#!/usr/bin/env -S node --max-semi-space-size=32
// The `fleet` command as an installed package binary, run with the server's Node flags (first line;
// src/config/node-flags.ts): registers tsx so Node can load the TypeScript sources, then runs the CLI
// (src/cli/main.ts) on this process's arguments.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
await runCli(process.argv.slice(2));

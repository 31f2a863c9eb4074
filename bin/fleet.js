#!/usr/bin/env node
// The `fleet` command as an installed package binary: registers tsx so Node can load the TypeScript
// sources, then runs the CLI (src/cli/main.ts) on this process's arguments.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
await runCli(process.argv.slice(2));

#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no build step between a clone and a run.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
// An interrupted run has written its reports: a request the target still holds open must not
// keep the process alive. Exit once stdout and stderr are flushed.
if (code > 128) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));

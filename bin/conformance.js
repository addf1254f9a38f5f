#!/usr/bin/env node
// Runs the compiled JavaScript of dist/ with plain node: no transpiler at start-up.
// `npm run build` writes dist/ (npm ci runs it; `npm run conformance` and the tests rebuild first).
import { existsSync } from 'node:fs';
import v8 from 'node:v8';

// A long run keeps ~50 MB that lives (its ledgers, the embedded server's identities) and churns
// through gigabytes of garbage; on a machine with much memory V8 lets the heap grow to 4 times what
// lives before it collects: 550 MB at `run --runs 5000`. 1.5 times keeps a run, a replay and a
// verify within 250 MB (issue 33: 195 MB, and 216 MB at 2 times; the same wall time). A heap
// setting of the user's own wins, in either spelling V8 takes (dashes or underscores).
if (!/--(max[-_]old[-_]space[-_]size|max[-_]heap[-_]size|heap[-_]growing[-_]percent)/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '))) {
  v8.setFlagsFromString('--heap-growing-percent=50');
}

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('conformance: dist/ is not built; run `npm run build` first.');
  process.exitCode = 2;
} else {
  // A reader that stops reading (`| head`) is no crash: the rest of the output goes nowhere, and a
  // run still finishes and writes its reports.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const { main } = await import(entry.href);
  const code = await main(process.argv.slice(2));
  process.exitCode = code;
  // An interrupted run has written its reports: a request the target still holds open must not
  // keep the process alive. Exit once stdout and stderr are flushed.
  if (code > 128) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

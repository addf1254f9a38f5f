/**
 * vitest globalSetup of the unit project: compiles src/ to dist/ once before the tests, so the
 * tests that spawn bin/conformance.js (it runs dist/) judge the sources as they are, never a stale
 * build. `tsc -b` skips in a fraction of a second when nothing changed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status === 0) return;
  const output = `${build.stdout}${build.stderr}`.trim();
  // Type errors still emit JavaScript: the tests judge behaviour (type errors are `npm run typecheck`'s).
  if (build.status === 1 && !build.error && existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
    console.warn(`npm run build reports type errors; the tests run the JavaScript it emitted:\n${output}`);
    return;
  }
  throw new Error(`npm run build failed (${build.error?.message ?? `exit ${build.status}`}):\n${output}`);
}

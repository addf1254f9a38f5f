/** bin/conformance.js runs the compiled dist/: without it, one line says what to do (exit 2), no stack. */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it('says to run npm run build when dist/ is missing', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'conformance-unbuilt-'));
  mkdirSync(path.join(root, 'bin'));
  copyFileSync(path.resolve('bin/conformance.js'), path.join(root, 'bin/conformance.js'));
  let result: { status: number | null; stderr: string; stdout: string } = { status: 0, stderr: '', stdout: '' };
  try {
    execFileSync(process.execPath, [path.join(root, 'bin/conformance.js'), '--help'], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    result = error as typeof result;
  }
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual(['conformance: dist/ is not built; run `npm run build` first.']);
});

/**
 * A report that cannot be written late in a run (the disk filled, someone put a folder in its
 * place) is said on stderr and keeps a conformant run from exiting 0: a gate needs its evidence.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { reportDir } from '../cli/binary.ts';
import { start } from './child.ts';

it('a conformant run whose conformance.json cannot be written exits 2, and says why', async () => {
  const dir = reportDir();
  const child = start(['run', '--runs', '300', '--seed', '5', '--report-dir', dir]);
  // The folder was checked and cleared at the start; now the report's own name is taken.
  await child.waitFor(/running \d+ rules/);
  mkdirSync(path.join(dir, 'conformance.json'));
  const { code, stdout, stderr } = await child.exited;
  expect(stdout).toContain('verdict: conformant');
  expect(stderr).toContain('the json report could not be written');
  expect(stderr).toContain('its reports are incomplete');
  expect(code).toBe(2);
});

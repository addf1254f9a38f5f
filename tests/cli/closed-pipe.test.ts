/** Output into a pipe whose reader stopped (`conformance ... | head -1`): no stack trace, the command finishes. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = path.resolve('bin/conformance.js');

const throughHead = (args: string) =>
  new Promise<{ stdout: string; stderr: string }>((resolve) => {
    execFile('sh', ['-c', `node ${BIN} ${args} | head -1`], { timeout: 60_000 }, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });

describe('a closed pipe', () => {
  it('validate --list | head -1: one line, nothing on stderr', async () => {
    const { stdout, stderr } = await throughHead('validate --list');
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toBe('');
  });

  it('run | head -1: the run still writes its reports', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-pipe-'));
    const { stderr } = await throughHead(`run --profile quick --seed 1 --report-dir ${dir}`);
    expect(stderr).toBe('');
    expect(existsSync(path.join(dir, 'conformance.json'))).toBe(true);
  });
});

/** `conformance self-test` in process: one column per server, the hidden faults said, the flags checked. */
import { describe, expect, it } from 'vitest';
import { selfTest } from '../../src/cli/self-test.ts';
import type { CliIO } from '../../src/cli/io.ts';

function memoryIO(): CliIO & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(l), env: {}, isTTY: false, readStdin: async () => '' };
}

describe('conformance self-test', () => {
  it('runs a fault on the plain and the strict server and prints them side by side', async () => {
    const io = memoryIO();
    expect(await selfTest(['--fault', 'fa-status-lowercase', '--runs', '2'], io)).toBe(0);
    expect(io.lines[0]).toBe('fault matrix: 1 faults, seed 1, 2 random cases per rule, on the plain and the strict server');
    expect(io.lines[1]).toMatch(/^ {4}fault\s+rule\s+plain\s+strict$/);
    const row = io.lines.find((l) => l.includes('fa-status-lowercase'))!;
    expect(row).toMatch(
      /^ {2}✓ fa-status-lowercase\s+fa\.status\.enum \(documented, §2\.1\)\s+detected, exit 1, \d+ requests, first at \d+\s+detected, exit 1, \d+ requests/,
    );
    // The strict column starts where the header says.
    expect(row.indexOf('detected', row.indexOf('detected') + 1)).toBe(io.lines[1].indexOf('strict'));
    expect(io.lines.at(-1)).toBe('2 passed, 0 failed (plain 1/1, strict 1/1)');
    expect(io.lines.join('\n')).not.toContain('every allowed reading');
  });

  it('says n/a for a fault the strict variant never reaches, and counts it as not applicable', async () => {
    const io = memoryIO();
    expect(await selfTest(['--fault', 'id-astral-name-500', '--server', 'strict'], io)).toBe(0);
    expect(io.lines[1]).toMatch(/^ {4}fault\s+rule\s+strict$/);
    expect(io.lines.find((l) => l.includes('id-astral-name-500'))).toMatch(/✓ id-astral-name-500\s+id\.valid-accepted .+\s+n\/a \(hidden\)$/);
    expect(io.lines).toContain('      strict: hidden: the strict variant refuses a name outside its ASCII pattern before storing it');
    expect(io.lines.at(-1)).toBe('0 passed, 0 failed (strict 0/0); 1 not applicable (the defect is hidden on that server)');
  });

  it('--help names both servers; --server takes plain or strict', async () => {
    const io = memoryIO();
    expect(await selfTest(['--help'], io)).toBe(0);
    expect(io.lines.join('\n')).toMatch(/on the plain server and on its strict variant/);
    expect(io.lines.join('\n')).toMatch(/--server S\s+only this server, plain or strict \(default both\)/);
    await expect(selfTest(['--server', 'lenient'], memoryIO())).rejects.toThrow('--server must be plain or strict, got "lenient"');
  });
});

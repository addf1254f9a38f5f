import { describe, expect, it } from 'vitest';
import { colourEnabled, palette } from '../../../src/report/terminal/colour.ts';
import { createConsoleReporter } from '../../../src/report/terminal/console.ts';
import { sampleReport } from '../sample-report.ts';

async function endLinesWith(env: Record<string, string | undefined>, isTTY: boolean): Promise<string> {
  const lines: string[] = [];
  await createConsoleReporter({ out: (l) => lines.push(l), isTTY: false, palette: palette(colourEnabled(env, isTTY)) })({
    type: 'run-end',
    report: sampleReport(),
  });
  return lines.join('\n');
}

describe('colour', () => {
  it('a terminal gets colour; a pipe, NO_COLOR or TERM=dumb none; FORCE_COLOR wins, FORCE_COLOR=0 refuses', () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
    expect(colourEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    // no-color.org: an empty NO_COLOR does not count.
    expect(colourEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colourEnabled({ TERM: 'dumb' }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: 'false' }, true)).toBe(false);
  });

  it('NO_COLOR on a terminal: no escape code; FORCE_COLOR into a pipe: the verdict, statuses and counts painted', async () => {
    expect(await endLinesWith({ NO_COLOR: '1' }, true)).not.toContain('\u001b');
    const painted = await endLinesWith({ FORCE_COLOR: '1' }, false);
    expect(painted).toContain('verdict: \u001b[1m\u001b[31mnon-conformant\u001b[39m\u001b[22m');
    expect(painted).toMatch(/\u001b\[31m✗ failed\u001b\[39m/);
    expect(painted).toMatch(/\u001b\[32m✓ passed\u001b\[39m/);
    expect(painted).toContain('\u001b[31m3 failed\u001b[39m');
  });

  it('the painted table keeps its columns: the same rows once the codes are taken out', async () => {
    const plain = await endLinesWith({}, false);
    const painted = await endLinesWith({ FORCE_COLOR: '1' }, false);
    expect(painted.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });
});

/**
 * A HAR file read an entry at a time (issue 33): a run's own exchanges.har, the same HAR
 * pretty-printed or on one line with its redaction mark after the entries, each gives the same
 * entries and log; a file that is no HAR, or an entry over the stated limit, is one UsageError line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../../src/api/index.ts';
import { UsageError } from '../../../src/core/errors.ts';
import type { HarEntry } from '../../../src/report/files/har.ts';
import { HarReader } from '../../../src/report/files/har-reader.ts';

let dir: string;
let har: { log: { entries: HarEntry[] } & Record<string, unknown> };
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'har-reader-'));
  await runConformance({ rules: ['fa.metadata.'], profile: 'quick', seed: 3, reportDir: dir });
  har = JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(file: string, limits?: { elementBytes: number; restBytes: number }): Promise<{ entries: HarEntry[]; log: unknown }> {
  const reader = new HarReader(file, limits);
  const entries: HarEntry[] = [];
  for await (const entry of reader.entries()) entries.push(entry);
  return { entries, log: reader.log };
}

describe('HarReader', () => {
  it("reads a run's exchanges.har (one entry a line) entry by entry, the same as parsing it whole", async () => {
    const { entries, log } = await read(path.join(dir, 'exchanges.har'));
    expect(entries.length).toBeGreaterThan(10);
    expect(entries).toEqual(har.log.entries);
    expect(log).toEqual({ ...har.log, entries: [] });
  });

  it('reads the same HAR pretty-printed, and on one line with a mark after the entries (as a redacted bundle writes it)', async () => {
    const pretty = path.join(dir, 'pretty.har');
    writeFileSync(pretty, JSON.stringify(har, null, 2));
    expect((await read(pretty)).entries).toEqual(har.log.entries);
    const marked = path.join(dir, 'marked.har');
    writeFileSync(marked, JSON.stringify({ log: { ...har.log, comment: 'redacted', _redactedPersonal: true } }));
    const reader = new HarReader(marked);
    expect(await reader.readLog()).toMatchObject({ comment: 'redacted', _redactedPersonal: true, entries: [] });
  });

  it('holds one entry at a time: a file 10 times its limits reads whole', async () => {
    const pretty = path.join(dir, 'pretty.har');
    // Twice the largest entry: in the file it is indented deeper.
    const largest = Math.max(...har.log.entries.map((e) => Buffer.byteLength(JSON.stringify(e, null, 2))));
    const limits = { elementBytes: 2 * largest, restBytes: 4096 };
    expect(readFileSync(pretty).length).toBeGreaterThan(10 * (limits.elementBytes + limits.restBytes));
    expect((await read(pretty, limits)).entries.length).toBe(har.log.entries.length);
  });

  it('an entry over the limit, a file that is no HAR, a broken entry: one UsageError line each', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'big.har',
        JSON.stringify({ log: { entries: [{ a: 'x'.repeat(3000) }] } }),
        /big\.har is not a HAR file this tool reads: element 0 of log\.entries is larger than 1000 bytes/,
      ],
      ['none.har', '{"log": {"version": "1.2"}}', /none\.har is not a HAR file this tool reads: no log\.entries array/],
      ['text.har', 'hello', /text\.har is not JSON \(/],
      ['broken.har', '{"log": {"entries": [{"a": 1}, {"b": nope}]}}', /broken\.har: entry 1 is not JSON/],
      ['cut.har', '{"log": {"entries": [{"a": 1}', /cut\.har is not a HAR file this tool reads: the document ends inside log\.entries/],
    ];
    for (const [name, text, message] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const error = await read(file, { elementBytes: 1000, restBytes: 1000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('a missing file or a folder: one UsageError line', async () => {
    await expect(read(path.join(dir, 'missing.har'))).rejects.toThrow(/cannot read .*missing\.har: ENOENT/);
    await expect(read(dir)).rejects.toThrow(/is a folder; give the file itself/);
  });
});

/**
 * The inputs the memory figures are measured on (scripts/memory.ts), not the figures: the gzip
 * bomb is a small .tar.gz whose one member declares what it inflates to; the large HAR is a run's
 * entries copied, each copy with a run tag and twin links of its own, read back entry by entry.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import type { HarEntry } from '../../src/report/files/har.ts';
import { HarReader } from '../../src/report/files/har-reader.ts';
import { writeGzipBomb, writeLargeHar } from '../../scripts/memory.ts';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'memory-inputs-'));
  await runConformance({ rules: ['id.ref-id.', 'fa.metadata.over-pairs-rejected'], profile: 'quick', seed: 9, reportDir: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the memory figures' inputs", () => {
  it('the gzip bomb: a ustar member declaring what it holds, zeros, a thousand times smaller packed', async () => {
    const file = path.join(dir, 'bomb.tar.gz');
    const packed = await writeGzipBomb(file, 8 * 2 ** 20);
    expect(packed).toBeLessThan((8 * 2 ** 20) / 500);
    const tar = gunzipSync(readFileSync(file));
    expect(tar.subarray(0, 13).toString('latin1')).toBe('manifest.json');
    expect(tar.subarray(257, 262).toString('latin1')).toBe('ustar');
    expect(Number.parseInt(tar.subarray(124, 135).toString('latin1'), 8)).toBe(8 * 2 ** 20);
    expect(tar.length).toBe(512 + 8 * 2 ** 20 + 1024);
  });

  it('the large HAR: the entries copied to the count asked, each copy under its own run tag and twin links', async () => {
    const source = path.join(dir, 'exchanges.har');
    const original = (JSON.parse(readFileSync(source, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const file = path.join(dir, 'large.har');
    const count = original.length * 3 + 5;
    expect(await writeLargeHar(source, file, count)).toBe(count);
    expect(statSync(file).size).toBeGreaterThan(3 * statSync(source).size);
    const entries: HarEntry[] = [];
    for await (const entry of new HarReader(file).entries()) entries.push(entry);
    expect(entries.length).toBe(count);
    const tagOf = (e: HarEntry) => /"conformance_run":"([^"]+)"/.exec(e.request.postData?.text ?? '')?.[1];
    // Three whole copies, three tags (the last 5 entries, a fourth copy's start, create nothing).
    const tags = new Set(
      entries
        .slice(0, 3 * original.length)
        .map(tagOf)
        .filter((t) => t !== undefined),
    );
    expect(tags.size).toBe(3);
    const twins = (from: number, to: number) => new Set(entries.slice(from, to).flatMap((e) => (e._case?.input ? [e._case.input] : [])));
    const first = twins(0, original.length);
    expect(first.size).toBeGreaterThan(0);
    expect([...twins(original.length, 2 * original.length)].filter((t) => first.has(t))).toEqual([]);
  });
});

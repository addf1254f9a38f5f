/**
 * verify of a bundle file reads it as a stream: gzip bombs (kilobytes outside, hundreds of
 * megabytes inside) are refused early, at a header over its cap or at the first byte that is no
 * HAR, with the bytes inflated until then counted, never the whole stream.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { InflateProgress } from '../../src/report/files/bundle/tar-archive.ts';
import { encodeHeader } from '../../src/report/files/bundle/tar-header.ts';
import { verifyEvidenceFile } from '../../src/run/verify-evidence.ts';

const MiB = 1024 * 1024;

/** A bundle file of `head` then `fill` bytes of `byte`, gzip level 9: a bomb. */
async function bombFile(head: Buffer, fill: number, byte = 0): Promise<string> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'bomb-')), 'bomb.tar.gz');
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(MiB, byte);
  async function* body() {
    yield head;
    for (let left = fill; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(chunk.length, left));
  }
  await pipeline(body(), createGzip({ level: 9 }), new Writable({ write: (c, _e, done) => (parts.push(c), done()) }));
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

async function verifyCounting(file: string): Promise<{ problem?: string; inflated: number }> {
  const progress: InflateProgress = { inflated: 0 };
  const result = await verifyEvidenceFile(file, undefined, progress);
  expect(result.verified).toBe(false);
  return { ...(result.problem ? { problem: result.problem } : {}), inflated: progress.inflated };
}

describe('verify of a gzip bomb', () => {
  it('refuses a member declaring more than its cap at its header', async () => {
    const file = await bombFile(encodeHeader('conformance-bundle/exchanges.har', 2 * 1024 * MiB - 1), 200 * MiB);
    const read = await verifyCounting(file);
    expect(read.problem).toBe('archive: exchanges.har declares 2147483647 bytes, over its limit of 1024 MiB');
    expect(read.inflated).toBeLessThan(MiB);
  });

  it('refuses a HAR of zeros within its cap at its first byte, and one that starts as JSON at its first zero', async () => {
    const zeros = await verifyCounting(await bombFile(encodeHeader('conformance-bundle/exchanges.har', 400 * MiB), 200 * MiB));
    expect(zeros.problem).toBe('archive: exchanges.har does not start as JSON (byte 0 at offset 0): it is no HAR');
    expect(zeros.inflated).toBeLessThan(MiB);
    const head = Buffer.concat([encodeHeader('conformance-bundle/exchanges.har', 400 * MiB), Buffer.from('{"log": {"entries": [\n')]);
    const braced = await verifyCounting(await bombFile(head, 200 * MiB));
    expect(braced.problem).toBe('archive: exchanges.har holds a control byte (0) at offset 22: no JSON text does, it is no HAR');
    expect(braced.inflated).toBeLessThan(MiB);
  });

  it('refuses a manifest declaring more than 1 MiB, and a small member followed by zeros past its closing block', async () => {
    const manifest = await verifyCounting(await bombFile(encodeHeader('conformance-bundle/manifest.json', 400 * MiB), 200 * MiB, 0x20));
    expect(manifest.problem).toBe('archive: manifest.json declares 419430400 bytes, over its limit of 1 MiB');
    expect(manifest.inflated).toBeLessThan(MiB);
    const trailing = await verifyCounting(await bombFile(Buffer.concat([encodeHeader('conformance-bundle/a.txt', 1), Buffer.alloc(512, 'a')]), 200 * MiB));
    expect(trailing.problem).toBe('archive: over 1 MiB of zeros follow the closing block, more than any tar record pads');
    expect(trailing.inflated).toBeLessThan(3 * MiB);
  });
});

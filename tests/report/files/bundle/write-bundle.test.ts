/**
 * The bundle streamed from a report folder to its file is the bundle built in memory, byte for
 * byte; redacted, its HAR keeps one entry a line, marked on its head line.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMarkedRedacted } from '../../../../src/report/files/bundle/redaction-mark.ts';
import { readTarGz } from '../../../../src/report/files/bundle/tar-archive.ts';
import { verifyBundle } from '../../../../src/report/files/bundle/verify-bundle.ts';
import { buildBundle, reportFolderFiles, writeReportFolderBundle } from '../../../../src/report/files/bundle/write-bundle.ts';
import type { ConformanceReport } from '../../../../src/report/model/model.ts';
import { embeddedReportFolder, keyPair } from '../../bundle-fixture.ts';

let run: { dir: string; report: ConformanceReport };
beforeAll(async () => {
  run = await embeddedReportFolder(5);
});

describe('writeReportFolderBundle', () => {
  it('streams the same bytes buildBundle makes in memory, signed, and the manifest it lists', async () => {
    const signer = keyPair();
    const options = { signKey: signer.privateKey, commandLine: 'conformance run --seed 5' };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'streamed-')), 'b.tar.gz');
    const written = await writeReportFolderBundle(run.dir, file, options);
    const held = buildBundle(run.report, await reportFolderFiles(run.dir), options);
    expect(readFileSync(file).equals(held.bytes)).toBe(true);
    expect(written.manifest).toEqual(held.manifest);
    expect(written.attestation.equals(held.attestation)).toBe(true);
    expect(verifyBundle(readFileSync(file), signer.publicKey)).toMatchObject({ verified: true });
  });

  it('redacted: the HAR keeps one entry a line and says it is redacted on its head line; it verifies', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'streamed-')), 'r.tar.gz');
    const { manifest } = await writeReportFolderBundle(run.dir, file, { redactPersonal: true, commandLine: 'conformance run --seed 5' });
    expect(manifest.redactedValues).toBeGreaterThan(0);
    const har = readTarGz(readFileSync(file))
      .find((m) => m.name === 'exchanges.har')!
      .data.toString('utf8');
    const original = readFileSync(path.join(run.dir, 'exchanges.har'), 'utf8');
    expect(har.split('\n')).toHaveLength(original.split('\n').length);
    expect(har.split('\n')[0]).toMatch(/^\{"log": \{"comment": ".*", "_redactedPersonal": true, "version": "1.2"/);
    expect(isMarkedRedacted(JSON.parse(har))).toBe(true);
    expect(verifyBundle(readFileSync(file))).toMatchObject({ verified: true });
  });
});

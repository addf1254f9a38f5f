/**
 * The evidence bundle of a real embedded run: it verifies fresh; a changed byte in any member, a
 * damaged archive, an edited verdict (manifest recomputed, signature dropped or left) and a wrong
 * public key each fail with one line naming what changed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, MANIFEST_FILE, manifestBytes, SIGNATURE_FILE, BUNDLED_KEY_FILE } from '../../src/report/files/bundle/manifest.ts';
import { readTarGz } from '../../src/report/files/bundle/tar-archive.ts';
import { verifyBundle } from '../../src/report/files/bundle/verify-bundle.ts';
import { buildBundle, reportFolderFiles } from '../../src/report/files/bundle/write-bundle.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { embeddedReportFolder, flipMiddleByte, keyPair, repack } from './bundle-fixture.ts';

const signer = keyPair();
let run: { dir: string; report: ConformanceReport };
let signed: Buffer;
let unsigned: Buffer;

beforeAll(async () => {
  // A fault that fails a documented rule: the report holds failures and a non-conformant verdict to tamper with.
  run = await embeddedReportFolder(11, 'id-govt-id-differs');
  const files = await reportFolderFiles(run.dir);
  signed = buildBundle(run.report, files, { signKey: signer.privateKey, commandLine: 'conformance run --seed 11' }).bytes;
  unsigned = buildBundle(run.report, files, { commandLine: 'conformance run --seed 11' }).bytes;
});

describe('a fresh bundle', () => {
  it('verifies against the signer public key, and says what the key inside the bundle proves', () => {
    expect(run.report.summary.verdict).toBe('non-conformant');
    const given = verifyBundle(signed, signer.publicKey);
    expect(given).toMatchObject({ verified: true, key: 'given' });
    expect(given.manifest?.files.map((f) => f.name)).toEqual([
      'attestation.intoto.jsonl',
      'conformance.json',
      'created-identities.json',
      'exchanges.har',
      'junit.xml',
      'report.html',
      'restore-journal.json',
      BUNDLED_KEY_FILE,
      'summary.md',
    ]);
    expect(verifyBundle(signed)).toMatchObject({ verified: true, key: 'bundled' });
    expect(verifyBundle(signed).notes.join(' ')).toMatch(/integrity only/);
  });

  it('unsigned: verifies and says integrity only, no proof of origin; fails when a public key is given', () => {
    const result = verifyBundle(unsigned);
    expect(result).toMatchObject({ verified: true, key: 'none', notes: ['unsigned: integrity only, no proof of origin'] });
    expect(verifyBundle(unsigned, signer.publicKey)).toMatchObject({ verified: false, problem: expect.stringMatching(/^the bundle is unsigned/) });
  });

  it('holds the run facts in its manifest, and the same inputs give the same bytes', async () => {
    const manifest = verifyBundle(signed).manifest!;
    expect(manifest).toMatchObject({
      seed: 11,
      verdict: 'non-conformant',
      schemasHash: run.report.schemasHash,
      startedAt: run.report.startedAt,
      signature: 'ed25519',
      redacted: false,
      redactedValues: 0,
    });
    expect(Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt)).toBe(Math.round(run.report.durationMs));
    expect(manifest.sections).toContain('8');
    const again = buildBundle(run.report, await reportFolderFiles(run.dir), { signKey: signer.privateKey, commandLine: 'conformance run --seed 11' });
    expect(again.bytes.equals(signed)).toBe(true);
  });

  it('opens with the system tar, into one folder, with the same bytes', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'bundle-tar-'));
    const file = path.join(out, 'evidence.tar.gz');
    writeFileSync(file, signed);
    execFileSync('tar', ['-xzf', file, '-C', out]);
    for (const member of readTarGz(signed)) {
      expect(readFileSync(path.join(out, 'conformance-bundle', member.name)).equals(member.data), member.name).toBe(true);
    }
  });
});

describe('a changed bundle fails with one line', () => {
  it('names each member whose byte changed (the manifest and its signature: the signature)', () => {
    for (const member of readTarGz(signed)) {
      const changed = repack(signed, (ms) => ms.map((m) => (m.name === member.name ? { ...m, data: flipMiddleByte(m.data) } : m)));
      const result = verifyBundle(changed, signer.publicKey);
      expect(result.verified, member.name).toBe(false);
      const names =
        member.name === MANIFEST_FILE || member.name === SIGNATURE_FILE ? /signature does not match the public key given|manifest\.json/ : member.name;
      expect(result.problem, member.name).toMatch(names);
      expect(result.problem).not.toMatch(/\n/);
    }
  });

  it('a raw byte of the archive flipped', () => {
    const result = verifyBundle(flipMiddleByte(signed), signer.publicKey);
    expect(result).toMatchObject({ verified: false, problem: expect.stringMatching(/^archive: /) });
  });

  it('an added member, a removed member', () => {
    const added = repack(unsigned, (ms) => [...ms, { name: 'extra.txt', data: Buffer.from('x') }]);
    expect(verifyBundle(added).problem).toBe('extra.txt is in the archive but not in the manifest');
    const removed = repack(unsigned, (ms) => ms.filter((m) => m.name !== 'junit.xml'));
    expect(verifyBundle(removed).problem).toBe('junit.xml is missing (the manifest lists it)');
  });

  it('a wrong public key', () => {
    const other = keyPair();
    expect(verifyBundle(signed, other.publicKey).problem).toMatch(/^signature does not match the public key given/);
  });
});

describe('an edited verdict with the manifest recomputed', () => {
  /** conformance.json edited by `edit`, the manifest's hashes recomputed, the signature dropped or left. */
  function tampered(edit: (report: ConformanceReport) => void, keepSignature: boolean): Buffer {
    return repack(signed, (members) => {
      const json = members.find((m) => m.name === 'conformance.json')!;
      const report = JSON.parse(json.data.toString('utf8')) as ConformanceReport;
      edit(report);
      const edited = { name: 'conformance.json', data: Buffer.from(JSON.stringify(report, null, 2)) };
      const dropped = [MANIFEST_FILE, SIGNATURE_FILE, 'conformance.json', ...(keepSignature ? [] : [BUNDLED_KEY_FILE])];
      const files = members.filter((m) => !dropped.includes(m.name)).concat(edited);
      const manifest = buildManifest(report, files, { commandLine: 'conformance run --seed 11' });
      const kept = keepSignature ? members.filter((m) => m.name === SIGNATURE_FILE) : [];
      const claimed = keepSignature ? { ...manifest, signature: 'ed25519' as const } : manifest;
      return [...files, ...kept, { name: MANIFEST_FILE, data: manifestBytes(claimed) }];
    });
  }

  const toConformant = (report: ConformanceReport) => {
    report.summary.verdict = 'conformant';
  };

  it('unsigned: the verdict disagrees with the rules', () => {
    const result = verifyBundle(tampered(toConformant, false));
    expect(result.problem).toMatch(/^conformance\.json: summary\.verdict is conformant, its rules say non-conformant \(id\.govt-id\.mirrors-cip failed/);
    expect(verifyBundle(tampered(toConformant, false), signer.publicKey).problem).toMatch(/^the bundle is unsigned/);
  });

  it('with the old signature left in place: the signature no longer matches', () => {
    expect(verifyBundle(tampered(toConformant, true), signer.publicKey).problem).toMatch(/^signature does not match the public key given/);
    expect(verifyBundle(tampered(toConformant, true)).problem).toMatch(/^signature does not match the public key inside the bundle/);
  });

  it('a rule status edited, and the counts and verdict edited to follow it', () => {
    const passed = (report: ConformanceReport) => {
      const rule = report.rules.find((r) => r.status === 'failed')!;
      rule.status = 'passed';
      rule.blocking = false;
      report.summary.failed -= 1;
      report.summary.passed += 1;
      report.summary.verdict = 'conformant';
    };
    expect(verifyBundle(tampered(passed, false)).problem).toMatch(
      /^conformance\.json: rules: id\.govt-id\.mirrors-cip is passed, its evidence says failed \(\d+ failures recorded\)$/,
    );
  });
});

describe('a conformance.json that is no report', () => {
  it('fails with the schema line, never a crash', () => {
    const broken = repack(unsigned, (members) => {
      const files = members
        .filter((m) => m.name !== MANIFEST_FILE)
        .map((m) => (m.name === 'conformance.json' ? { ...m, data: Buffer.from(JSON.stringify({ ...run.report, rules: [{ id: 'fa.valid-accepted' }] })) } : m));
      return [...files, { name: MANIFEST_FILE, data: manifestBytes(buildManifest(run.report, files, { commandLine: 'x' })) }];
    });
    expect(verifyBundle(broken).problem).toMatch(/^conformance\.json is not a valid conformance\.json report: \/rules\/0: /);
  });
});

/**
 * The attestation inside a bundle must agree with the rest of it: `verify` fails, in one line, an
 * attestation that says PASSED beside a non-conformant report, one signed by another key than the
 * manifest, a signed one in an unsigned bundle, and one whose subjects or settings differ, even when
 * the manifest is rebuilt and signed again by the right key. A bundle written before the
 * attestation existed still verifies, and says it has none.
 */
import type { KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTESTATION_FILE } from '../../../../../src/report/files/bundle/attestation/attestation.ts';
import { envelopeLine, sealEnvelope } from '../../../../../src/report/files/bundle/attestation/dsse-envelope.ts';
import { type TestResultStatement, testResultStatement } from '../../../../../src/report/files/bundle/attestation/test-result-statement.ts';
import { buildManifest, MANIFEST_FILE, manifestBytes, parseManifest, SIGNATURE_FILE } from '../../../../../src/report/files/bundle/manifest.ts';
import { keyFingerprint, signBytes } from '../../../../../src/report/files/bundle/signature.ts';
import { type ArchiveMember, readTarGz } from '../../../../../src/report/files/bundle/tar-archive.ts';
import { verifyBundle } from '../../../../../src/report/files/bundle/verify-bundle.ts';
import { buildBundle, reportFolderFiles } from '../../../../../src/report/files/bundle/write-bundle.ts';
import type { ConformanceReport } from '../../../../../src/report/model/model.ts';
import { embeddedReportFolder, keyPair, repack } from '../../../bundle-fixture.ts';

const signer = keyPair();
const COMMAND = 'conformance run --seed 12 --fault id-govt-id-differs';
let report: ConformanceReport;
let signed: Buffer;
let unsigned: Buffer;

beforeAll(async () => {
  const run = await embeddedReportFolder(12, 'id-govt-id-differs');
  report = run.report;
  const files = await reportFolderFiles(run.dir);
  signed = buildBundle(report, files, { signKey: signer.privateKey, commandLine: COMMAND }).bytes;
  unsigned = buildBundle(report, files, { commandLine: COMMAND }).bytes;
});

/** The bundle with its attestation replaced (or removed), the manifest rebuilt and signed again by `manifestKey` (none: unsigned). */
function withAttestation(bytes: Buffer, attestation: Buffer | undefined, manifestKey?: KeyObject): Buffer {
  return repack(bytes, (members) => {
    const files: ArchiveMember[] = members.filter((m) => m.name !== MANIFEST_FILE && m.name !== SIGNATURE_FILE && m.name !== ATTESTATION_FILE);
    if (attestation) files.push({ name: ATTESTATION_FILE, data: attestation });
    const old = parseManifest(members.find((m) => m.name === MANIFEST_FILE)!.data);
    if (typeof old === 'string') throw new Error(old);
    const manifest = manifestBytes(
      buildManifest(report, files, { commandLine: old.commandLine, ...(manifestKey ? { signer: keyFingerprint(manifestKey) } : {}) }),
    );
    const signature = manifestKey ? [{ name: SIGNATURE_FILE, data: signBytes(manifest, manifestKey) }] : [];
    return [...files, { name: MANIFEST_FILE, data: manifest }, ...signature];
  });
}

/** The statement the writer makes for this bundle, edited by `edit`, sealed with `key`. */
function forged(edit: (statement: TestResultStatement) => void, key?: KeyObject): Buffer {
  const subjects = parseManifest(readTarGz(signed).find((m) => m.name === MANIFEST_FILE)!.data) as { files: { name: string; sha256: string }[] };
  const statement = testResultStatement(
    report,
    subjects.files.filter((f) => f.name !== ATTESTATION_FILE && f.name !== 'signer-public-key.pem'),
    { commandLine: COMMAND },
  );
  edit(statement);
  return envelopeLine(sealEnvelope(Buffer.from(JSON.stringify(statement)), key));
}

describe("a bundle's attestation", () => {
  it('agrees when fresh: verify reports its result and the files it attests', () => {
    expect(verifyBundle(signed, signer.publicKey)).toMatchObject({ verified: true, attestation: { result: 'FAILED', subjects: 7 } });
    expect(verifyBundle(unsigned)).toMatchObject({ verified: true, attestation: { result: 'FAILED', subjects: 7 } });
    // The forging helper, unedited, makes the very statement the writer made.
    expect(
      verifyBundle(
        withAttestation(
          signed,
          forged(() => {}, signer.privateKey),
          signer.privateKey,
        ),
        signer.publicKey,
      ).verified,
    ).toBe(true);
  });

  it('saying PASSED beside a non-conformant report fails, even signed and listed by the right key', () => {
    const passed = forged((s) => {
      s.predicate.result = 'PASSED';
    }, signer.privateKey);
    expect(verifyBundle(withAttestation(signed, passed, signer.privateKey), signer.publicKey).problem).toBe(
      "attestation.intoto.jsonl: predicate.result is PASSED, conformance.json's verdict non-conformant makes it FAILED",
    );
  });

  it('a failed test moved to the passed ones, a subject digest or a setting changed: fails, naming where', () => {
    const cases: [string, (s: TestResultStatement) => void, RegExp][] = [
      [
        'moved test',
        (s) => {
          s.predicate.passedTests.push(s.predicate.failedTests.pop()!);
        },
        /^attestation\.intoto\.jsonl: predicate\.passedTests differs from conformance\.json's rule statuses$/,
      ],
      [
        'subject',
        (s) => {
          s.subject[0].digest.sha256 = '0'.repeat(64);
        },
        /^attestation\.intoto\.jsonl: subject\[0\]\.digest\.sha256 differs/,
      ],
      [
        'seed',
        (s) => {
          (s.predicate.configuration[1].annotations as { seed: number }).seed = 13;
        },
        /^attestation\.intoto\.jsonl: predicate\.configuration\[1\]\.annotations\.seed differs/,
      ],
    ];
    for (const [name, edit, problem] of cases) {
      const result = verifyBundle(withAttestation(signed, forged(edit, signer.privateKey), signer.privateKey), signer.publicKey);
      expect(result.problem, name).toMatch(problem);
    }
  });

  it('signed by another key than the manifest, or signed in an unsigned bundle, or unsigned in a signed one: fails', () => {
    const other = keyPair();
    const notTheManifestsKey = 'attestation.intoto.jsonl: its signature is not by the key that signed manifest.json';
    const problemOfSigned = (attestation: Buffer) => verifyBundle(withAttestation(signed, attestation, signer.privateKey), signer.publicKey).problem;
    expect(problemOfSigned(forged(() => {}, other.privateKey))).toBe(notTheManifestsKey);
    expect(problemOfSigned(forged(() => {}))).toBe(notTheManifestsKey);
    expect(
      verifyBundle(
        withAttestation(
          unsigned,
          forged(() => {}, signer.privateKey),
        ),
      ).problem,
    ).toBe('attestation.intoto.jsonl is signed, but manifest.json says the bundle is unsigned');
  });

  it('that is no envelope fails with its line; none at all (an older bundle) verifies and says so', () => {
    expect(verifyBundle(withAttestation(unsigned, Buffer.from('not json\n'))).problem).toMatch(/^attestation\.intoto\.jsonl is not a JSON envelope/);
    const older = verifyBundle(withAttestation(signed, undefined, signer.privateKey), signer.publicKey);
    expect(older).toMatchObject({ verified: true });
    expect(older.attestation).toBeUndefined();
    expect(older.notes).toContain('no attestation.intoto.jsonl: bundled before the tool wrote one');
  });
});

/**
 * The attestation of a real embedded run's bundle, checked as a partner would: sigstore's own
 * verifier (@sigstore/verify, with the public key alone: no transparency log, no certificate)
 * accepts the DSSE envelope, and the subjects' SHA-256 then match the bundled files; a changed
 * byte of any subject, of the payload, or another key fails that check. Unsigned bundles carry an
 * envelope without signatures, which that verifier refuses. A redacted bundle's statement holds
 * no personal value the run sent.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleFromJSON } from '@sigstore/bundle';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTESTATION_FILE, attestationBeside, buildAttestation } from '../../../../../src/report/files/bundle/attestation/attestation.ts';
import type { DsseEnvelope } from '../../../../../src/report/files/bundle/attestation/dsse-envelope.ts';
import type { TestResultStatement } from '../../../../../src/report/files/bundle/attestation/test-result-statement.ts';
import { BUNDLED_KEY_FILE, MANIFEST_FILE, SIGNATURE_FILE } from '../../../../../src/report/files/bundle/manifest.ts';
import { personalValuesOfHar } from '../../../../../src/report/files/bundle/personal-values.ts';
import { readTarGz } from '../../../../../src/report/files/bundle/tar-archive.ts';
import { type Bundle, buildBundle, reportFolderFiles } from '../../../../../src/report/files/bundle/write-bundle.ts';
import type { ConformanceReport } from '../../../../../src/report/model/model.ts';
import { embeddedReportFolder, flipMiddleByte, keyPair } from '../../../bundle-fixture.ts';

const signer = keyPair();
let run: { dir: string; report: ConformanceReport };
let signed: Bundle;
let unsigned: Bundle;
let redacted: Bundle;

beforeAll(async () => {
  // A fault that fails a documented rule: the attestation must say FAILED and name it.
  run = await embeddedReportFolder(31, 'id-govt-id-differs');
  const files = await reportFolderFiles(run.dir);
  const commandLine = 'conformance run --seed 31 --fault id-govt-id-differs';
  signed = buildBundle(run.report, files, { signKey: signer.privateKey, commandLine });
  unsigned = buildBundle(run.report, files, { commandLine });
  redacted = buildBundle(run.report, files, { signKey: signer.privateKey, redactPersonal: true, commandLine });
});

const envelopeOf = (attestation: Buffer): DsseEnvelope => JSON.parse(attestation.toString('utf8')) as DsseEnvelope;
const membersOf = (bundle: Bundle): Map<string, Buffer> => new Map(readTarGz(bundle.bytes).map((m) => [m.name, m.data]));

/**
 * What a partner's pipeline does with the envelope and the public key: sigstore's verifier checks
 * the DSSE signature (thresholds for transparency logs and timestamps at 0: a key, not a keyless
 * signature), then the statement's subjects are matched by SHA-256 against the files at hand.
 * Returns the verified statement; throws what failed.
 */
function partnerCheck(attestation: Buffer, files: Map<string, Buffer>, publicKey: KeyObject): TestResultStatement {
  const envelope = envelopeOf(attestation);
  const hint = envelope.signatures[0]?.keyid ?? '';
  const bundle = bundleFromJSON({
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial: { publicKey: { hint }, tlogEntries: [] },
    dsseEnvelope: envelope,
  });
  const emptyRoot = { mediaType: '', certificateAuthorities: [], ctlogs: [], tlogs: [], timestampAuthorities: [] } as unknown as Parameters<
    typeof toTrustMaterial
  >[0];
  const trust = toTrustMaterial(emptyRoot, () => ({ publicKey, validFor: () => true }));
  new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle));
  // The payload as sigstore decoded and verified it, not re-read from the file.
  if (bundle.content.$case !== 'dsseEnvelope') throw new Error('not a DSSE bundle');
  const statement = JSON.parse(Buffer.from(bundle.content.dsseEnvelope.payload).toString('utf8')) as TestResultStatement;
  for (const subject of statement.subject) {
    const data = files.get(subject.name);
    if (!data) throw new Error(`${subject.name}: missing`);
    if (createHash('sha256').update(data).digest('hex') !== subject.digest.sha256) throw new Error(`${subject.name}: digest mismatch`);
  }
  return statement;
}

describe('the attestation of a signed bundle', () => {
  it('is a member of the bundle, listed in the manifest, the same bytes as the copy written beside it', () => {
    const members = membersOf(signed);
    expect(members.get(ATTESTATION_FILE)?.equals(signed.attestation)).toBe(true);
    expect(signed.manifest.files.map((f) => f.name)).toContain(ATTESTATION_FILE);
    expect(attestationBeside('out/evidence.tar.gz')).toBe('out/evidence.intoto.jsonl');
    expect(attestationBeside('out/evidence.TGZ')).toBe('out/evidence.intoto.jsonl');
    expect(attestationBeside('evidence.bin')).toBe('evidence.bin.intoto.jsonl');
  });

  it("sigstore's verifier accepts it with the public key alone; its subjects are the report files, by SHA-256", () => {
    const statement = partnerCheck(signed.attestation, membersOf(signed), signer.publicKey);
    const excluded = [MANIFEST_FILE, SIGNATURE_FILE, BUNDLED_KEY_FILE, ATTESTATION_FILE];
    expect(statement.subject.map((s) => s.name)).toEqual(signed.manifest.files.map((f) => f.name).filter((n) => !excluded.includes(n)));
    expect(statement.subject.map((s) => s.name)).toEqual(expect.arrayContaining(['conformance.json', 'exchanges.har', 'created-identities.json']));
    expect(run.report.summary.verdict).toBe('non-conformant');
    expect(statement.predicate.result).toBe('FAILED');
    expect(statement.predicate.failedTests).toContain('id.govt-id.mirrors-cip');
    const statuses = run.report.rules.filter((r) => r.status === 'passed').map((r) => r.id);
    expect(statement.predicate.passedTests).toEqual(statuses);
  });

  it('a changed byte of any subject fails the check, naming it', () => {
    const members = membersOf(signed);
    const subjects = partnerCheck(signed.attestation, members, signer.publicKey).subject.map((s) => s.name);
    expect(subjects.length).toBeGreaterThanOrEqual(5);
    for (const name of subjects) {
      const changed = new Map(members).set(name, flipMiddleByte(members.get(name)!));
      expect(() => partnerCheck(signed.attestation, changed, signer.publicKey), name).toThrow(`${name}: digest mismatch`);
    }
  });

  it('a changed byte of the payload, a changed signature, or another key: sigstore refuses it', () => {
    const envelope = envelopeOf(signed.attestation);
    const payload = flipMiddleByte(Buffer.from(envelope.payload, 'base64'));
    const withPayload = Buffer.from(JSON.stringify({ ...envelope, payload: payload.toString('base64') }));
    expect(() => partnerCheck(withPayload, membersOf(signed), signer.publicKey)).toThrow(/signature verification failed/);
    const sig = flipMiddleByte(Buffer.from(envelope.signatures[0].sig, 'base64')).toString('base64');
    const withSig = Buffer.from(JSON.stringify({ ...envelope, signatures: [{ ...envelope.signatures[0], sig }] }));
    expect(() => partnerCheck(withSig, membersOf(signed), signer.publicKey)).toThrow(/signature verification failed/);
    expect(() => partnerCheck(signed.attestation, membersOf(signed), keyPair().publicKey)).toThrow(/signature verification failed/);
  });
});

describe('the attestation of an unsigned bundle', () => {
  it('has no signature, which sigstore refuses; its statement is the signed one', () => {
    const envelope = envelopeOf(unsigned.attestation);
    expect(envelope.signatures).toEqual([]);
    expect(envelope.payload).toBe(envelopeOf(signed.attestation).payload);
    expect(() => partnerCheck(unsigned.attestation, membersOf(unsigned), signer.publicKey)).toThrow(/invalid bundle/);
  });
});

/** Whether `text` holds `value` where no letter or digit touches it (a name inside a rule id is no leak). */
const shows = (text: string, value: string): boolean =>
  new RegExp(`(?<![\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(text);

describe('the attestation of a redacted bundle', () => {
  it('holds no personal value the run sent, attests the redacted files, and says it is redacted', () => {
    const personal = [...personalValuesOfHar(readFileSync(path.join(run.dir, 'exchanges.har'), 'utf8'))].filter(
      (v) => [...v].length >= 3 && /[\p{L}\p{N}]/u.test(v),
    );
    expect(personal).toEqual(expect.arrayContaining(['Lovelace']));
    const statement = partnerCheck(redacted.attestation, membersOf(redacted), signer.publicKey);
    const command = statement.predicate.configuration.find((c) => c.name === 'command')!;
    const text = `${JSON.stringify(statement)}\n${Buffer.from(command.content!, 'base64').toString('utf8')}`;
    expect(personal.filter((value) => shows(text, value))).toEqual([]);
    expect(command.annotations).toMatchObject({ redacted: true, redactedValues: redacted.manifest.redactedValues });
    expect(redacted.manifest.redactedValues).toBeGreaterThan(20);
    // The redacted HAR is attested, not the one sent.
    const har = statement.subject.find((s) => s.name === 'exchanges.har')!;
    expect(har.digest.sha256).not.toBe(
      partnerCheck(signed.attestation, membersOf(signed), signer.publicKey).subject.find((s) => s.name === 'exchanges.har')!.digest.sha256,
    );
  });

  it('the scan finds a personal value when one is there (the check can fail)', () => {
    const leaked = buildAttestation(run.report, [{ name: 'x', sha256: '0'.repeat(64) }], { commandLine: 'conformance run --label Lovelace' });
    const statement = JSON.parse(Buffer.from(envelopeOf(leaked).payload, 'base64').toString('utf8')) as TestResultStatement;
    const command = statement.predicate.configuration.find((c) => c.name === 'command')!;
    expect(shows(Buffer.from(command.content!, 'base64').toString('utf8'), 'Lovelace')).toBe(true);
  });
});

describe('the attestation of a conformant run with a warning', () => {
  it('says WARNED and lists the convention that failed without blocking in warnedTests, not failedTests', async () => {
    // A 401 without a WWW-Authenticate challenge: a convention, which does not block without --strict.
    const warned = await embeddedReportFolder(32, 'fa-auth-no-challenge');
    const rule = warned.report.rules.find((r) => r.id === 'fa.auth-challenge')!;
    expect(rule).toMatchObject({ status: 'failed', blocking: false });
    expect(warned.report.summary.verdict).toBe('conformant');
    const made = buildBundle(warned.report, await reportFolderFiles(warned.dir), { signKey: signer.privateKey, commandLine: 'conformance run --seed 32' });
    const { predicate } = partnerCheck(made.attestation, membersOf(made), signer.publicKey);
    expect(predicate.result).toBe('WARNED');
    expect(predicate.warnedTests).toContain('fa.auth-challenge');
    expect(predicate.failedTests).toEqual([]);
  });
});

/**
 * `conformance verify`'s checks, offline and in memory (docs/design.md 5.10): the archive reads;
 * manifest.json is there and parses; the signature matches the public key given (or the one the
 * bundle carries: integrity only); every listed file is there with its hash and size, and no
 * other; conformance.json agrees with itself (its rules decide its statuses, counts and verdict,
 * report/model/verdict-check.ts); junit.xml and summary.md state the same verdict. The first
 * failure is one line naming what changed.
 */
import type { KeyObject } from 'node:crypto';
import type { ConformanceReport } from '../../model/model.ts';
import { reportDisagreement } from '../../model/verdict-check.ts';
import { checkedReport } from '../../model/read-report.ts';
import { UsageError } from '../../../core/errors.ts';
import { REPORT_FILES } from '../write-reports.ts';
import { BUNDLED_KEY_FILE, type Manifest, MANIFEST_FILE, parseManifest, SIGNATURE_FILE, sha256 } from './manifest.ts';
import { keyFingerprint, publicKeyOfPem, signatureMatches } from './signature.ts';
import { type ArchiveMember, ArchiveError, readTarGz } from './tar-archive.ts';
import { type BundledAttestation, checkBundledAttestation } from './attestation/bundled-attestation.ts';

/** What `verifyBundle` found: verified, or the one line of the first failure. */
export interface VerifyResult {
  verified: boolean;
  /** Why not: one line naming the file and what changed. */
  problem?: string;
  /** What the verification proves and what it does not (unsigned, key inside the bundle). */
  notes: string[];
  manifest?: Manifest;
  /** The key the signature was checked with: the one given, the bundle's own, or none (unsigned). */
  key: 'given' | 'bundled' | 'none';
  /** The bundle's attestation.intoto.jsonl, checked against the rest: its result and how many files it attests (absent in an older bundle). */
  attestation?: BundledAttestation;
}

/** What a signature that does not match means, said once. */
const CHANGED = `${MANIFEST_FILE} or ${SIGNATURE_FILE} changed, or another key signed it`;

type Step = { problem: string } | { notes: string[]; key: VerifyResult['key'] };

/** Checks the signature (or its absence) of the manifest's bytes. */
function checkSignature(manifest: Manifest, members: Map<string, Buffer>, publicKey: KeyObject | undefined): Step {
  const bytes = members.get(MANIFEST_FILE)!;
  const signature = members.get(SIGNATURE_FILE);
  if (manifest.signature === 'none') {
    if (signature) return { problem: `${SIGNATURE_FILE} is there, but ${MANIFEST_FILE} says the bundle is unsigned` };
    if (publicKey) return { problem: 'the bundle is unsigned: nothing matches the public key given (unsigned: integrity only, no proof of origin)' };
    return { notes: ['unsigned: integrity only, no proof of origin'], key: 'none' };
  }
  if (!signature) return { problem: `${SIGNATURE_FILE} is missing, but ${MANIFEST_FILE} says the bundle is signed` };
  if (publicKey) {
    if (!signatureMatches(bytes, signature, publicKey))
      return { problem: `signature does not match the public key given (${keyFingerprint(publicKey)}): ${CHANGED}` };
    return { notes: [`signed by the public key given (${keyFingerprint(publicKey)})`], key: 'given' };
  }
  const carried = members.get(BUNDLED_KEY_FILE);
  const listed = manifest.files.find((f) => f.name === BUNDLED_KEY_FILE);
  if (!carried || !listed) return { problem: `the bundle is signed but carries no ${BUNDLED_KEY_FILE}: give --public-key` };
  if (sha256(carried) !== listed.sha256) return { problem: `${BUNDLED_KEY_FILE}: SHA-256 differs from the manifest` };
  const bundled = publicKeyOfPem(carried.toString('utf8'));
  if (!bundled) return { problem: `${BUNDLED_KEY_FILE} is not a PEM Ed25519 public key` };
  if (!signatureMatches(bytes, signature, bundled)) return { problem: `signature does not match the public key inside the bundle: ${CHANGED}` };
  return {
    notes: [
      `signed by the key inside the bundle (${keyFingerprint(bundled)}): this proves integrity only; give --public-key with the signer's key to prove origin`,
    ],
    key: 'bundled',
  };
}

/** Every listed file there with its hash and size, and no file unlisted. */
function checkFiles(manifest: Manifest, members: Map<string, Buffer>): string | undefined {
  const listed = new Set<string>();
  for (const file of manifest.files) {
    if (listed.has(file.name)) return `${MANIFEST_FILE} lists ${file.name} twice`;
    listed.add(file.name);
    const data = members.get(file.name);
    if (!data) return `${file.name} is missing (the manifest lists it)`;
    if (sha256(data) !== file.sha256) return `${file.name}: SHA-256 differs from the manifest`;
    if (data.length !== file.size) return `${file.name}: ${data.length} bytes, the manifest says ${file.size}`;
  }
  for (const name of members.keys()) {
    if (name !== MANIFEST_FILE && name !== SIGNATURE_FILE && !listed.has(name)) return `${name} is in the archive but not in the manifest`;
  }
  if (!listed.has(REPORT_FILES.json)) return `the manifest lists no ${REPORT_FILES.json}`;
  return undefined;
}

/** The verdict the other formats state, against conformance.json's. */
function checkRenderings(report: ConformanceReport, members: Map<string, Buffer>, manifest: Manifest): string | undefined {
  const verdict = report.summary.verdict;
  const junit = members.get(REPORT_FILES.junit)?.toString('utf8');
  const suites = junit ? /<testsuites name="[^"]*? ([a-z-]+)"/.exec(junit)?.[1] : undefined;
  if (junit && suites !== verdict) return `${REPORT_FILES.junit}: the verdict is ${suites ?? 'missing'}, ${REPORT_FILES.json} says ${verdict}`;
  const markdown = members.get(REPORT_FILES.markdown)?.toString('utf8');
  const stated = markdown ? /^## Conformance: \S+ \*\*([^*]+)\*\*/m.exec(markdown)?.[1]?.toLowerCase() : undefined;
  if (markdown && stated !== verdict) return `${REPORT_FILES.markdown}: the verdict is ${stated ?? 'missing'}, ${REPORT_FILES.json} says ${verdict}`;
  if (manifest.verdict !== verdict) return `${MANIFEST_FILE}: the verdict is ${manifest.verdict}, ${REPORT_FILES.json} says ${verdict}`;
  if (manifest.seed !== report.seed) return `${MANIFEST_FILE}: the seed is ${manifest.seed}, ${REPORT_FILES.json} says ${report.seed}`;
  return undefined;
}

/** The report in conformance.json, or the line saying why it is none (not JSON, not valid against the report schema). */
function reportOf(members: Map<string, Buffer>): ConformanceReport | string {
  try {
    return checkedReport(JSON.parse(members.get(REPORT_FILES.json)!.toString('utf8')), REPORT_FILES.json);
  } catch (error) {
    if (error instanceof SyntaxError) return `${REPORT_FILES.json} is not JSON (${error.message})`;
    if (error instanceof UsageError) return error.message;
    throw error;
  }
}

/** Verifies a bundle's bytes against `publicKey` (or the key it carries, or none when unsigned). */
export function verifyBundle(bytes: Buffer, publicKey?: KeyObject): VerifyResult {
  const fail = (problem: string, manifest?: Manifest): VerifyResult => ({
    verified: false,
    problem,
    notes: [],
    key: 'none',
    ...(manifest ? { manifest } : {}),
  });
  let list: ArchiveMember[];
  try {
    list = readTarGz(bytes);
  } catch (error) {
    if (error instanceof ArchiveError) return fail(`archive: ${error.message}`);
    throw error;
  }
  const members = new Map(list.map((m) => [m.name, m.data]));
  const manifestData = members.get(MANIFEST_FILE);
  if (!manifestData) return fail(`${MANIFEST_FILE} is missing`);
  const manifest = parseManifest(manifestData);
  if (typeof manifest === 'string') return fail(manifest);
  const signature = checkSignature(manifest, members, publicKey);
  if ('problem' in signature) return fail(signature.problem, manifest);
  const filesProblem = checkFiles(manifest, members);
  if (filesProblem) return fail(filesProblem, manifest);
  const report = reportOf(members);
  if (typeof report === 'string') return fail(report, manifest);
  const disagreement = reportDisagreement(report);
  if (disagreement) return fail(`${REPORT_FILES.json}: ${disagreement}`, manifest);
  const rendering = checkRenderings(report, members, manifest);
  if (rendering) return fail(rendering, manifest);
  const attested = checkBundledAttestation((name) => members.get(name), manifest, report, publicKey);
  if ('problem' in attested) return fail(attested.problem, manifest);
  const attestation = attested.attestation ? { attestation: attested.attestation } : {};
  return { verified: true, notes: [...signature.notes, ...attested.notes], manifest, key: signature.key, ...attestation };
}

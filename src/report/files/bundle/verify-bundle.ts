/**
 * `conformance verify`'s checks, offline (docs/design.md 5.10): the archive reads (as a stream:
 * every member hashed as it is inflated, only the members judged whole kept, each under its cap,
 * bundle-limits.ts);
 * manifest.json is there and parses; the signature matches the public key given (or the one the
 * bundle carries: integrity only); every listed file is there with its hash and size, and no
 * other; conformance.json agrees with itself (its rules decide its statuses, counts and verdict,
 * report/model/verdict-check.ts); junit.xml and summary.md state the same verdict. The first
 * failure is one line naming what changed.
 */
import { createHash, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ConformanceReport } from '../../model/model.ts';
import { reportDisagreement } from '../../model/verdict-check.ts';
import { checkedReport } from '../../model/read-report.ts';
import { UsageError } from '../../../core/errors.ts';
import { REPORT_FILES } from '../write-reports.ts';
import { BUNDLED_KEY_FILE, type Manifest, MANIFEST_FILE, parseManifest, SIGNATURE_FILE } from './manifest.ts';
import { keyFingerprint, publicKeyOfPem, signatureMatches } from './signature.ts';
import { type BundledAttestation, checkBundledAttestation } from './attestation/bundled-attestation.ts';
import { ATTESTATION_FILE } from './attestation/attestation.ts';
import { type ArchiveMember, ArchiveError, type InflateProgress, type MemberSink, readTarGz, readTarGzStream } from './tar-archive.ts';
import { BUNDLE_LIMITS } from './bundle-limits.ts';

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

/** What verify keeps of a bundle: every member's SHA-256 and size, and the bytes of those it judges whole. */
export interface BundleContents {
  digests: Map<string, { sha256: string; size: number }>;
  kept: Map<string, Buffer>;
}

/** The members verify judges whole, held in memory (each capped in bundle-limits.ts); every other one is only hashed. */
export const JUDGED_WHOLE: ReadonlySet<string> = new Set([
  MANIFEST_FILE,
  SIGNATURE_FILE,
  BUNDLED_KEY_FILE,
  ATTESTATION_FILE,
  REPORT_FILES.json,
  REPORT_FILES.junit,
  REPORT_FILES.markdown,
]);

/** A sink that hashes a member, keeps it when it is judged whole, and passes it to `also` (a reader of its own). */
function memberSink(name: string, contents: BundleContents, also: MemberSink | undefined): MemberSink {
  const hash = createHash('sha256');
  const chunks: Buffer[] | undefined = JUDGED_WHOLE.has(name) ? [] : undefined;
  let size = 0;
  return {
    write(chunk) {
      hash.update(chunk);
      size += chunk.length;
      chunks?.push(Buffer.from(chunk));
      also?.write(chunk);
    },
    end() {
      contents.digests.set(name, { sha256: hash.digest('hex'), size });
      if (chunks) contents.kept.set(name, Buffer.concat(chunks));
      also?.end();
    },
  };
}

/** What a reader of a member's bytes other than verify's (the re-judge's HAR reader) gets: by name and declared size, or none. */
export type MemberWatch = (name: string, size: number) => MemberSink | undefined;

/** The contents of members held in memory (readTarGz's), each also given to `watch`'s sink. */
export function contentsOfMembers(members: readonly ArchiveMember[], watch: MemberWatch = () => undefined): BundleContents {
  const contents: BundleContents = { digests: new Map(), kept: new Map() };
  for (const member of members) {
    const sink = memberSink(member.name, contents, watch(member.name, member.data.length));
    sink.write(member.data);
    sink.end();
  }
  return contents;
}

/** The contents of a bundle read as a stream, member by member, each under its cap (an ArchiveError at the first refusal). */
export async function readBundleContents(source: Readable, watch: MemberWatch = () => undefined, progress?: InflateProgress): Promise<BundleContents> {
  const contents: BundleContents = { digests: new Map(), kept: new Map() };
  await readTarGzStream(source, (name, size) => memberSink(name, contents, watch(name, size)), BUNDLE_LIMITS, progress);
  return contents;
}

/** What a signature that does not match means, said once. */
const CHANGED = `${MANIFEST_FILE} or ${SIGNATURE_FILE} changed, or another key signed it`;

type Step = { problem: string } | { notes: string[]; key: VerifyResult['key'] };

/** Checks the signature (or its absence) of the manifest's bytes. */
function checkSignature(manifest: Manifest, { kept, digests }: BundleContents, publicKey: KeyObject | undefined): Step {
  const bytes = kept.get(MANIFEST_FILE)!;
  const signature = kept.get(SIGNATURE_FILE);
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
  const carried = kept.get(BUNDLED_KEY_FILE);
  const listed = manifest.files.find((f) => f.name === BUNDLED_KEY_FILE);
  if (!carried || !listed) return { problem: `the bundle is signed but carries no ${BUNDLED_KEY_FILE}: give --public-key` };
  if (digests.get(BUNDLED_KEY_FILE)?.sha256 !== listed.sha256) return { problem: `${BUNDLED_KEY_FILE}: SHA-256 differs from the manifest` };
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
function checkFiles(manifest: Manifest, digests: BundleContents['digests']): string | undefined {
  const listed = new Set<string>();
  for (const file of manifest.files) {
    if (listed.has(file.name)) return `${MANIFEST_FILE} lists ${file.name} twice`;
    listed.add(file.name);
    const digest = digests.get(file.name);
    if (!digest) return `${file.name} is missing (the manifest lists it)`;
    if (digest.sha256 !== file.sha256) return `${file.name}: SHA-256 differs from the manifest`;
    if (digest.size !== file.size) return `${file.name}: ${digest.size} bytes, the manifest says ${file.size}`;
  }
  for (const name of digests.keys()) {
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

const failed = (problem: string, manifest?: Manifest): VerifyResult => ({
  verified: false,
  problem,
  notes: [],
  key: 'none',
  ...(manifest ? { manifest } : {}),
});

/** A verification and, when verified, the report it checked, for checks composed after it (the re-judge). */
export interface Verification {
  result: VerifyResult;
  report?: ConformanceReport;
}

/** The verification of contents, or of the archive's refusal. */
function verification(contents: BundleContents | ArchiveError, publicKey: KeyObject | undefined): Verification {
  return contents instanceof ArchiveError ? { result: failed(`archive: ${contents.message}`) } : checkContents(contents, publicKey);
}

/** The archive's refusal, to verify as a failure; any other error is thrown again. */
function refusal(error: unknown): ArchiveError {
  if (error instanceof ArchiveError) return error;
  throw error;
}

/** verifyBundle with the report it checked; `watch` reads other members as they pass. */
export function verifyHeldBundle(bytes: Buffer, publicKey?: KeyObject, watch?: MemberWatch): Verification {
  let contents: BundleContents | ArchiveError;
  try {
    contents = contentsOfMembers(readTarGz(bytes, BUNDLE_LIMITS), watch);
  } catch (error) {
    contents = refusal(error);
  }
  return verification(contents, publicKey);
}

/** Verifies a bundle's bytes held in memory against `publicKey` (or the key it carries, or none when unsigned). */
export function verifyBundle(bytes: Buffer, publicKey?: KeyObject): VerifyResult {
  return verifyHeldBundle(bytes, publicKey).result;
}

/** Verifies a bundle read as a stream (a file's), holding only what it judges whole; `watch` reads other members as they pass. */
export async function verifyBundleStream(source: Readable, publicKey?: KeyObject, watch?: MemberWatch, progress?: InflateProgress): Promise<Verification> {
  return verification(await readBundleContents(source, watch, progress).catch(refusal), publicKey);
}

/** Every check of a bundle's contents, stopping at the first failure. */
export function verifyContents(contents: BundleContents, publicKey?: KeyObject): VerifyResult {
  return checkContents(contents, publicKey).result;
}

/** verifyContents with the report it checked, when verified. */
function checkContents(contents: BundleContents, publicKey: KeyObject | undefined): Verification {
  const fail = (problem: string, manifest?: Manifest): Verification => ({ result: failed(problem, manifest) });
  const members = contents.kept;
  const manifestData = members.get(MANIFEST_FILE);
  if (!manifestData) return fail(`${MANIFEST_FILE} is missing`);
  const manifest = parseManifest(manifestData);
  if (typeof manifest === 'string') return fail(manifest);
  const signature = checkSignature(manifest, contents, publicKey);
  if ('problem' in signature) return fail(signature.problem, manifest);
  const filesProblem = checkFiles(manifest, contents.digests);
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
  return { result: { verified: true, notes: [...signature.notes, ...attested.notes], manifest, key: signature.key, ...attestation }, report };
}

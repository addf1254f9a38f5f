/**
 * `conformance verify attestation.intoto.jsonl --public-key K [--bundle B | --subjects DIR]`: the
 * DSSE envelope's signature, its in-toto Test Result statement against the published schemas, and
 * with the files the subjects' SHA-256: against a bundle (verified whole first, as `verify B`
 * does, so re-judged too), or against a folder of the files (the bundle unpacked, a report folder
 * for an unredacted bundle). Exit 0 verified, 1 verification failed, 2 usage.
 */
import type { KeyObject } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { EXIT, UsageError } from '../core/errors.ts';
import { sha256, sha256OfFile } from '../report/files/bundle/manifest.ts';
import { ATTESTATION_FILE } from '../report/files/bundle/attestation/attestation.ts';
import { type AttestationVerifyResult, type SubjectFiles, verifyAttestation } from '../report/files/bundle/attestation/verify-attestation.ts';
import { type EvidenceVerifyResult, verifyEvidenceFile } from '../run/verify-evidence.ts';
import { checkBundleFile } from './verify-input.ts';

/** What `verify` was given beside the attestation. */
export interface AttestationInputs {
  publicKey?: KeyObject;
  bundle?: string;
  subjects?: string;
  json?: boolean;
}

/** The SHA-256 of a regular file in `dir` named `name` (one plain name, no folder), streamed; undefined when there is none. */
async function fileDigest(dir: string, name: string): Promise<string | undefined> {
  if (name !== path.basename(name) || name === '..' || name === '.') return undefined;
  const file = path.join(dir, name);
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return sha256OfFile(file);
}

/** The subjects' files: a verified bundle's manifest, or a folder. Throws a UsageError for a folder that is none. */
async function subjectFiles(inputs: AttestationInputs, bundle: EvidenceVerifyResult | undefined): Promise<SubjectFiles | undefined> {
  if (bundle?.manifest) {
    const files = bundle.manifest.files;
    return { from: `the bundle ${inputs.bundle}`, digest: async (name) => files.find((f) => f.name === name)?.sha256 };
  }
  if (inputs.subjects === undefined) return undefined;
  const dir = inputs.subjects;
  if (!(await lstat(dir).catch(() => undefined))?.isDirectory())
    throw new UsageError(`--subjects ${dir} is not a folder; give the folder that holds the attested files`);
  return { from: dir, digest: (name) => fileDigest(dir, name), read: (name) => readFile(path.join(dir, name)).catch(() => undefined) };
}

/** The attestation checked against the bundle's own: the same bytes, or a failure line. */
function sameAsBundled(bytes: Buffer, file: string, bundle: EvidenceVerifyResult): string | undefined {
  const listed = bundle.manifest?.files.find((f) => f.name === ATTESTATION_FILE);
  if (listed && listed.sha256 !== sha256(bytes)) return `${file} is not the bundle's ${ATTESTATION_FILE} (SHA-256 differs)`;
  return undefined;
}

/** The one line of a verified attestation. */
function verifiedLine(file: string, result: AttestationVerifyResult): string {
  const p = result.statement!.predicate;
  const tests = `${p.passedTests.length} passed, ${p.warnedTests.length} warned, ${p.failedTests.length} failed tests`;
  return `verified: ${file}: in-toto Test Result, result ${p.result} (${tests}); ${result.notes.join('; ')}`;
}

/** The bundle given with --bundle, verified whole as `verify B` does. */
async function verifiedBundle(file: string, publicKey: KeyObject | undefined): Promise<EvidenceVerifyResult> {
  await checkBundleFile(file);
  return verifyEvidenceFile(file, publicKey);
}

/** Verifies an attestation file; prints one line (or --json) and returns the exit code. */
export async function verifyAttestationFile(file: string, bytes: Buffer, inputs: AttestationInputs, io: CliIO): Promise<number> {
  if (inputs.bundle !== undefined && inputs.subjects !== undefined) throw new UsageError('give --bundle FILE or --subjects DIR, not both');
  const bundle = inputs.bundle !== undefined ? await verifiedBundle(inputs.bundle, inputs.publicKey) : undefined;
  let result: AttestationVerifyResult;
  if (bundle && !bundle.verified) {
    result = { verified: false, problem: `the bundle ${inputs.bundle}: ${bundle.problem}`, notes: [], key: inputs.publicKey ? 'given' : 'none' };
  } else {
    result = await verifyAttestation(bytes.toString('utf8'), file, inputs.publicKey, await subjectFiles(inputs, bundle));
    const other = bundle && result.verified ? sameAsBundled(bytes, file, bundle) : undefined;
    if (other) result = { ...result, verified: false, problem: other };
  }
  if (inputs.json) io.out(JSON.stringify(result, null, 2));
  else if (result.verified) io.out(verifiedLine(file, result));
  else io.err(`conformance verify: ${file}: verification failed: ${result.problem}`);
  return result.verified ? EXIT.conformant : EXIT.nonConformant;
}

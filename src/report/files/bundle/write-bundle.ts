/**
 * Builds the signed evidence bundle of a report folder: every report file, manifest.json (hashes
 * and run facts) and, with a key, manifest.sig and the signer's public key, in one deterministic
 * .tar.gz (docs/design.md 5.10). `--redact-personal` replaces the personal values of every file
 * first (personal-redaction.ts); a value that would remain stops the bundle.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import { readReport } from '../../model/read-report.ts';
import type { ConformanceReport } from '../../model/model.ts';
import { rerunCommand } from '../../model/rerun-command.ts';
import { REPORT_FILES } from '../write-reports.ts';
import { BUNDLED_KEY_FILE, buildManifest, type Manifest, manifestBytes, MANIFEST_FILE, SIGNATURE_FILE, sha256 } from './manifest.ts';
import { keyFingerprint, publicKeyPem, signBytes } from './signature.ts';
import { type ArchiveMember, writeTarGz } from './tar-archive.ts';
import { redactPersonalValues } from './personal-redaction.ts';
import { writeWholeFile } from '../output-file.ts';
import { markRedactedHar } from './redaction-mark.ts';
import { HAR_FILE } from '../har-file.ts';
import { ATTESTATION_FILE, buildAttestation } from './attestation/attestation.ts';

/** How a bundle is made. */
export interface BundleOptions {
  /** The Ed25519 private key that signs the manifest; none: the bundle says it is unsigned. */
  signKey?: KeyObject;
  /** Replace names, account numbers, ids, emails and phone numbers in every file with stand-ins of the same shape. */
  redactPersonal?: boolean;
  /** The command line with its secrets removed; default: the report's re-run command. */
  commandLine?: string;
}

/** A bundle's bytes, its manifest, and its attestation.intoto.jsonl (also a member), to write beside it. */
export interface Bundle {
  bytes: Buffer;
  manifest: Manifest;
  attestation: Buffer;
}

/** The report files of `dir`, in the order write-reports.ts names them; conformance.json must be there. */
export async function reportFolderFiles(dir: string): Promise<ArchiveMember[]> {
  const members: ArchiveMember[] = [];
  for (const name of Object.values(REPORT_FILES)) {
    const file = path.join(dir, name);
    if (existsSync(file)) members.push({ name, data: await readFile(file) });
  }
  if (!members.some((m) => m.name === REPORT_FILES.json)) throw new UsageError(`${dir} holds no ${REPORT_FILES.json}: give a report folder`);
  return members;
}

/** The bundle of `files` (a report folder's), for `report` (their conformance.json). */
export function buildBundle(report: ConformanceReport, files: readonly ArchiveMember[], options: BundleOptions): Bundle {
  let members = [...files];
  let redactedValues: number | undefined;
  if (options.redactPersonal) {
    const redacted = redactPersonalValues(members);
    // The HAR says it is redacted itself: copied out of the bundle, a replay still knows (redaction-mark.ts).
    members = redacted.members.map((m) => (m.name === HAR_FILE ? { name: m.name, data: Buffer.from(markRedactedHar(m.data.toString('utf8')), 'utf8') } : m));
    redactedValues = redacted.values;
  }
  const commandLine = options.commandLine ?? rerunCommand(report);
  // The attestation's subjects are the report files as bundled; the manifest then lists it like them.
  const subjects = members.map((m) => ({ name: m.name, sha256: sha256(m.data) }));
  const attestation = buildAttestation(report, subjects, {
    commandLine,
    ...(redactedValues !== undefined ? { redactedValues } : {}),
    ...(options.signKey ? { signKey: options.signKey } : {}),
  });
  members.push({ name: ATTESTATION_FILE, data: attestation });
  if (options.signKey) members.push({ name: BUNDLED_KEY_FILE, data: Buffer.from(publicKeyPem(options.signKey), 'utf8') });
  const manifest = buildManifest(report, members, {
    commandLine,
    ...(redactedValues !== undefined ? { redactedValues } : {}),
    ...(options.signKey ? { signer: keyFingerprint(options.signKey) } : {}),
  });
  const bytes = manifestBytes(manifest);
  members.push({ name: MANIFEST_FILE, data: bytes });
  if (options.signKey) members.push({ name: SIGNATURE_FILE, data: signBytes(bytes, options.signKey) });
  return { bytes: writeTarGz(members), manifest, attestation };
}

/** The bundle of the report folder `dir`. */
export async function bundleReportFolder(dir: string, options: BundleOptions): Promise<Bundle> {
  const report = await readReport(path.join(dir, REPORT_FILES.json));
  return buildBundle(report, await reportFolderFiles(dir), options);
}

/**
 * Writes the bundle's bytes to `file` whole or not at all (a temporary file renamed); never over
 * what is not a regular file there, even one that appeared since the path was checked (output-file.ts).
 */
export async function writeBundleFile(file: string, bytes: Buffer): Promise<void> {
  await writeWholeFile(file, bytes, 'the bundle');
}

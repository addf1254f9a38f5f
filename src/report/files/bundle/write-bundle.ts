/**
 * Builds the signed evidence bundle of a report folder: every report file, the in-toto attestation
 * over them (attestation/), manifest.json (hashes and run facts) and, with a key, manifest.sig and the signer's public key, in one deterministic
 * .tar.gz (docs/design.md 5.10). `--redact-personal` replaces the personal values of every file
 * first (personal-redaction.ts); a value that would remain stops the bundle.
 *
 * Within bounded memory whatever the HAR's size: each file is hashed as a stream, exchanges.har
 * redacted line by line into a staging folder (har-redaction.ts), and the archive streamed to
 * the bundle file from the files; only the small report files are held whole while redacted.
 * Every member's name, SHA-256 and size is known before the manifest is built (`stageReportFolder`).
 */
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { UsageError } from '../../../core/errors.ts';
import { readReport } from '../../model/read-report.ts';
import type { ConformanceReport } from '../../model/model.ts';
import { rerunCommand } from '../../model/rerun-command.ts';
import { REPORT_FILES } from '../write-reports.ts';
import { JOURNAL_FILE } from '../../../engine/restore/restore-journal.ts';
import {
  BUNDLED_KEY_FILE,
  buildManifest,
  type Manifest,
  type ManifestFile,
  manifestBytes,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  sha256,
  sha256OfFile,
} from './manifest.ts';
import { keyFingerprint, publicKeyPem, signBytes } from './signature.ts';
import { type ArchiveMember, type ArchiveSource, writeTarGz, writeTarGzStream } from './tar-archive.ts';
import { PersonalRedaction, redactPersonalValues } from './personal-redaction.ts';
import { checkOutputFile, writeWholeFileStreamed } from '../output-file.ts';
import { markRedactedHar } from './redaction-mark.ts';
import { HAR_FILE } from '../har-file.ts';
import { personalValuesOfHarFile, redactHarFile } from './har-redaction.ts';
import { ATTESTATION_FILE, buildAttestation, checkAttestationBeside, writeAttestationBeside } from './attestation/attestation.ts';

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

/** A member ready for the archive: its digest known, its bytes in memory or in a file. */
type StagedMember = ArchiveSource & ManifestFile;

/**
 * The files of `dir` a bundle holds: the reports in the order write-reports.ts names them, then the
 * restore journal when the run wrote one (the accounts as they were and what was put back: the
 * evidence of what the run left behind). conformance.json must be there.
 */
function reportFileNames(dir: string): string[] {
  const names = [...Object.values(REPORT_FILES), JOURNAL_FILE].filter((name) => existsSync(path.join(dir, name)));
  if (!names.includes(REPORT_FILES.json)) throw new UsageError(`${dir} holds no ${REPORT_FILES.json}: give a report folder`);
  return names;
}

/** The bundled files of `dir` read whole (small folders, tests), in the order `reportFileNames` gives. */
export async function reportFolderFiles(dir: string): Promise<ArchiveMember[]> {
  const names = reportFileNames(dir);
  return Promise.all(names.map(async (name) => ({ name, data: await readFile(path.join(dir, name)) })));
}

/** A member held in memory. */
const heldMember = (name: string, data: Buffer): StagedMember => ({ name, data, sha256: sha256(data), size: data.length });

/** A file's member, hashed as it streams; its bytes are read again when archived (and counted against this size). */
async function fileMember(name: string, file: string): Promise<StagedMember> {
  return { name, file, sha256: await sha256OfFile(file), size: (await stat(file)).size };
}

/** The report's members, redacted into `staging` when asked: each with its digest, none of the large ones in memory. */
async function stageReportFolder(
  dir: string,
  names: readonly string[],
  redact: boolean,
  staging: string,
): Promise<{ members: StagedMember[]; redactedValues?: number }> {
  if (!redact) return { members: await Promise.all(names.map((name) => fileMember(name, path.join(dir, name)))) };
  const har = names.includes(HAR_FILE) ? path.join(dir, HAR_FILE) : undefined;
  const redaction = PersonalRedaction.of(har ? await personalValuesOfHarFile(har) : []);
  const members: StagedMember[] = [];
  for (const name of names) {
    if (name === HAR_FILE) {
      const staged = path.join(staging, name);
      members.push({ name, file: staged, ...(await redactHarFile(path.join(dir, name), staged, redaction)) });
    } else {
      members.push(heldMember(name, Buffer.from(redaction.redact(await readFile(path.join(dir, name), 'utf8'), name), 'utf8')));
    }
  }
  return { members, redactedValues: redaction.values };
}

/** What closes a bundle and what it says: its members, manifest and attestation. */
interface ClosedBundle {
  members: StagedMember[];
  manifest: Manifest;
  attestation: Buffer;
}

/**
 * The attestation over the report files, the key, the manifest of every member before it and the
 * signature: the members that close a bundle. The attestation's subjects are the report files as
 * bundled; the manifest then lists it like them, so manifest.sig covers it too.
 */
function closingMembers(report: ConformanceReport, members: StagedMember[], options: BundleOptions, redactedValues: number | undefined): ClosedBundle {
  const commandLine = options.commandLine ?? rerunCommand(report);
  const facts = { commandLine, ...(redactedValues !== undefined ? { redactedValues } : {}) };
  const attestation = buildAttestation(
    report,
    members.map((m) => ({ name: m.name, sha256: m.sha256 })),
    { ...facts, ...(options.signKey ? { signKey: options.signKey } : {}) },
  );
  const all = [...members, heldMember(ATTESTATION_FILE, attestation)];
  if (options.signKey) all.push(heldMember(BUNDLED_KEY_FILE, Buffer.from(publicKeyPem(options.signKey), 'utf8')));
  const manifest = buildManifest(report, all, { ...facts, ...(options.signKey ? { signer: keyFingerprint(options.signKey) } : {}) });
  const bytes = manifestBytes(manifest);
  all.push(heldMember(MANIFEST_FILE, bytes));
  if (options.signKey) all.push(heldMember(SIGNATURE_FILE, signBytes(bytes, options.signKey)));
  return { members: all, manifest, attestation };
}

/** The bundle of `files` (a report folder's, held in memory), for `report` (their conformance.json). */
export function buildBundle(report: ConformanceReport, files: readonly ArchiveMember[], options: BundleOptions): Bundle {
  let members = [...files];
  let redactedValues: number | undefined;
  if (options.redactPersonal) {
    const redacted = redactPersonalValues(members);
    // The HAR says it is redacted itself: copied out of the bundle, a replay still knows (redaction-mark.ts).
    members = redacted.members.map((m) => (m.name === HAR_FILE ? { name: m.name, data: Buffer.from(markRedactedHar(m.data.toString('utf8')), 'utf8') } : m));
    redactedValues = redacted.values;
  }
  const closed = closingMembers(
    report,
    members.map((m) => heldMember(m.name, m.data)),
    options,
    redactedValues,
  );
  const archived = closed.members.map((m) => ({ name: m.name, data: (m as { data: Buffer }).data }));
  return { bytes: writeTarGz(archived), manifest: closed.manifest, attestation: closed.attestation };
}

/**
 * Streams the bundle of the report folder `dir` into `out` (a file's temporary stream, or memory);
 * resolves to its manifest once every byte is written.
 */
export async function streamReportFolderBundle(dir: string, out: Writable, options: BundleOptions): Promise<Omit<Bundle, 'bytes'>> {
  const report = await readReport(path.join(dir, REPORT_FILES.json));
  const names = reportFileNames(dir);
  const staging = await mkdtemp(path.join(tmpdir(), 'conformance-bundle-'));
  try {
    const staged = await stageReportFolder(dir, names, options.redactPersonal === true, staging);
    const closed = closingMembers(report, staged.members, options, staged.redactedValues);
    await writeTarGzStream(closed.members, out);
    return { manifest: closed.manifest, attestation: closed.attestation };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The bundle of the report folder `dir`, its bytes in memory (the library's; the CLI streams it to its file). */
export async function bundleReportFolder(dir: string, options: BundleOptions): Promise<Bundle> {
  const chunks: Buffer[] = [];
  const written = await streamReportFolderBundle(
    dir,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
    options,
  );
  return { bytes: Buffer.concat(chunks), ...written };
}

/**
 * Writes the bundle of the report folder `dir` to `file` as a stream, whole or not at all (a
 * temporary file renamed); never over what is not a regular file there, even one that appeared
 * since the path was checked (output-file.ts). Resolves to its manifest and attestation.
 */
export async function writeReportFolderBundle(dir: string, file: string, options: BundleOptions): Promise<Omit<Bundle, 'bytes'>> {
  let written: Omit<Bundle, 'bytes'> | undefined;
  await writeWholeFileStreamed(
    file,
    async (out) => {
      written = await streamReportFolderBundle(dir, out, options);
    },
    'the bundle',
  );
  return written!;
}

/** Refuses, before anything is read or sent, a bundle path (`flag`'s) or the path beside it for its attestation that cannot be written. */
export async function checkBundleOutput(flag: string, file: string): Promise<void> {
  await checkOutputFile(flag, file);
  await checkAttestationBeside(flag, file);
}

/**
 * A report folder's bundle written to `file` as a stream, then its attestation alone beside it
 * (`beside`: for tools that take a DSSE envelope, cosign and policy engines).
 */
export async function writeEvidenceFiles(dir: string, file: string, options: BundleOptions): Promise<Omit<Bundle, 'bytes'> & { beside: string }> {
  const written = await writeReportFolderBundle(dir, file, options);
  return { ...written, beside: await writeAttestationBeside(file, written.attestation) };
}

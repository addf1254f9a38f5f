/**
 * manifest.json, the bundle's table of contents and the bytes its signature covers: the format,
 * the tool, the run (seed, profile, target without credentials, start and end, the command line
 * without secrets), the API document's sections the rules cite, the schemas' hash, whether
 * personal values were replaced, and per file its SHA-256 and size (docs/design.md 5.10).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { RULES } from '../../../core/catalogue.ts';
import { TOOL_NAME, TOOL_VERSION } from '../../../core/version.ts';
import type { ConformanceReport } from '../../model/model.ts';
import type { ArchiveMember } from './tar-archive.ts';
import { byName } from '../../../core/text.ts';

/** The member names of a bundle's manifest and of its signature. */
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';
/** The signer's public key, carried for information: verifying against it proves integrity, not origin. */
export const BUNDLED_KEY_FILE = 'signer-public-key.pem';
/** The manifest's `format` and `formatVersion`: a reader refuses another major version. */
export const MANIFEST_FORMAT = 'conformance-bundle';
export const MANIFEST_VERSION = '1.0.0';

/** One member of the bundle as the manifest lists it. */
export interface ManifestFile {
  name: string;
  sha256: string;
  size: number;
}

/** manifest.json (docs/design.md 5.10). */
export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: string;
  /** The tool that wrote the bundle, and the one that wrote the report (the same unless bundled later by another version). */
  tool: { name: string; version: string };
  reportTool: { name: string; version: string };
  seed: number;
  profile: string;
  target: { baseUrl: string; embedded: boolean };
  startedAt: string;
  endedAt: string;
  /** The command line with secrets removed; for a bundle made from a report folder, the report's re-run command. */
  commandLine: string;
  verdict: string;
  /** The sections of the API document the rules cite, in document order. */
  sections: string[];
  schemasHash: string;
  /** Whether --redact-personal replaced the personal values, and how many distinct values it replaced (0 when not). */
  redacted: boolean;
  redactedValues: number;
  /** `ed25519`: manifest.sig holds the signature of these bytes; `none`: the bundle is unsigned. */
  signature: 'ed25519' | 'none';
  /** The signer's key fingerprint (SHA-256 of its SPKI bytes), when signed. */
  signer?: string;
  files: ManifestFile[];
}

/** When the run ended, from its start and duration (ISO 8601, UTC): the manifest and the attestation say it alike. */
export const runEndedAt = (report: Pick<ConformanceReport, 'startedAt' | 'durationMs'>): string =>
  new Date(Date.parse(report.startedAt) + report.durationMs).toISOString();

/** The SHA-256 of bytes, as lowercase hex. */
export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The SHA-256 of a file, streamed, as lowercase hex. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `2.1` before `2.10` before `8`: section numbers in document order. */
const bySection = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? -1) !== (pb[i] ?? -1)) return (pa[i] ?? -1) - (pb[i] ?? -1);
  return 0;
};

/** Every section the catalogue's rules cite. */
export const citedSections = (): string[] => [...new Set(RULES.map((r) => r.section))].sort(bySection);

/** What the manifest says that the report does not: the command line, the redaction, the signer. */
export interface ManifestFacts {
  commandLine: string;
  redactedValues?: number;
  signer?: string;
}

/** A member's entry: as given when its digest is known (the writer hashes files as they stream), else hashed here. */
const fileEntry = (file: ManifestFile | ArchiveMember): ManifestFile =>
  'data' in file && !('sha256' in file)
    ? { name: file.name, sha256: sha256(file.data), size: file.data.length }
    : { name: file.name, sha256: (file as ManifestFile).sha256, size: (file as ManifestFile).size };

/** The manifest of `files` (every member but the manifest and its signature, by digest or bytes) for `report`. */
export function buildManifest(report: ConformanceReport, files: readonly (ManifestFile | ArchiveMember)[], facts: ManifestFacts): Manifest {
  const endedAt = runEndedAt(report);
  return {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    reportTool: report.tool,
    seed: report.seed,
    profile: report.profile,
    target: { baseUrl: report.target.baseUrl, embedded: report.target.embedded },
    startedAt: report.startedAt,
    endedAt,
    commandLine: facts.commandLine,
    verdict: report.summary.verdict,
    sections: citedSections(),
    schemasHash: report.schemasHash,
    redacted: facts.redactedValues !== undefined,
    redactedValues: facts.redactedValues ?? 0,
    signature: facts.signer ? 'ed25519' : 'none',
    ...(facts.signer ? { signer: facts.signer } : {}),
    files: files.map(fileEntry).sort(byName),
  };
}

/** The manifest's exact bytes: what is signed and what the archive holds. */
export const manifestBytes = (manifest: Manifest): Buffer => Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');

/** A parsed manifest.json, or the line that says what is wrong with it. */
export function parseManifest(data: Buffer): Manifest | string {
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch (error) {
    return `${MANIFEST_FILE} is not JSON (${(error as Error).message})`;
  }
  const m = value as Partial<Manifest> | null;
  if (m?.format !== MANIFEST_FORMAT) return `${MANIFEST_FILE} is not a ${MANIFEST_FORMAT} manifest (format ${JSON.stringify(m?.format)})`;
  if (String(m.formatVersion).split('.')[0] !== MANIFEST_VERSION.split('.')[0])
    return `${MANIFEST_FILE} is format version ${String(m.formatVersion)}; this tool reads ${MANIFEST_VERSION.split('.')[0]}.x`;
  const filesOk = Array.isArray(m.files) && m.files.every((f) => typeof f?.name === 'string' && typeof f.sha256 === 'string' && Number.isInteger(f.size));
  if (!filesOk) return `${MANIFEST_FILE}: files must list {name, sha256, size} per file`;
  if (m.signature !== 'ed25519' && m.signature !== 'none') return `${MANIFEST_FILE}: signature must be "ed25519" or "none"`;
  return m as Manifest;
}

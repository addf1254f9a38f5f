/**
 * `attestation.intoto.jsonl`: the run's Test Result statement (test-result-statement.ts) in a DSSE
 * envelope (dsse-envelope.ts), signed with the bundle's key, one line. Inside the bundle (listed in
 * the manifest like any file, so the manifest's signature covers it too) and beside the bundle
 * file, where cosign, policy engines and in-toto verifiers take it with the public key alone.
 */
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../../../../core/errors.ts';
import { outputFileProblem, shownPath, writeWholeFile } from '../../output-file.ts';
import type { ConformanceReport } from '../../../model/model.ts';
import { envelopeLine, sealEnvelope } from './dsse-envelope.ts';
import { type AttestedFile, type StatementFacts, testResultStatement } from './test-result-statement.ts';

/** The member name, and the suffix of the copy beside the bundle. */
export const ATTESTATION_FILE = 'attestation.intoto.jsonl';
const BESIDE_SUFFIX = '.intoto.jsonl';

/** Options of the attestation: the statement's facts and the key that signs it (none: an envelope without signatures). */
export interface AttestationOptions extends StatementFacts {
  signKey?: KeyObject;
}

/** The envelope's file bytes for `report` over `subjects` (the bundled report files, by name and SHA-256). */
export function buildAttestation(report: ConformanceReport, subjects: readonly AttestedFile[], options: AttestationOptions): Buffer {
  const facts: StatementFacts = {
    commandLine: options.commandLine,
    ...(options.redactedValues !== undefined ? { redactedValues: options.redactedValues } : {}),
  };
  const statement = Buffer.from(JSON.stringify(testResultStatement(report, subjects, facts)), 'utf8');
  return envelopeLine(sealEnvelope(statement, options.signKey));
}

/** Where the copy beside a bundle goes: `evidence.tar.gz` gives `evidence.intoto.jsonl` (`.tgz` too; another name gets the suffix added). */
export const attestationBeside = (bundleFile: string): string => `${bundleFile.replace(/\.(tar\.gz|tgz)$/i, '')}${BESIDE_SUFFIX}`;

/** Refuses, before anything is sent or read, a path beside the bundle that cannot take the attestation (a folder, a link, a device...). */
export async function checkAttestationBeside(flag: string, bundleFile: string): Promise<void> {
  const beside = attestationBeside(bundleFile);
  const problem = await outputFileProblem(beside);
  if (problem)
    throw new UsageError(
      `${flag} ${shownPath(bundleFile)}: its attestation beside it, ${shownPath(beside)}, cannot be used: ${problem}; give another bundle path`,
    );
}

/** Writes the attestation beside the bundle file, whole or not at all; resolves to its path. */
export async function writeAttestationBeside(bundleFile: string, attestation: Buffer): Promise<string> {
  const beside = attestationBeside(bundleFile);
  await writeWholeFile(beside, attestation, 'the attestation');
  return beside;
}

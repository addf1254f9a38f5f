/**
 * The attestation inside a bundle against the rest of it (verify-bundle.ts calls this last): signed
 * by the key that signed manifest.json, or unsigned with it; and its statement the one the bundle's
 * own facts give, rebuilt from conformance.json and manifest.json (the subjects are the manifest's
 * files but the key and the attestation, `result` follows the verdict, the tests the rule
 * statuses). So an attestation that says PASSED beside a non-conformant report fails by name.
 */
import type { KeyObject } from 'node:crypto';
import type { ConformanceReport } from '../../../model/model.ts';
import { REPORT_FILES } from '../../write-reports.ts';
import { BUNDLED_KEY_FILE, type Manifest, MANIFEST_FILE } from '../manifest.ts';
import { publicKeyOfPem } from '../signature.ts';
import { ATTESTATION_FILE } from './attestation.ts';
import { envelopeSignedBy, parseEnvelope } from './dsse-envelope.ts';
import { envelopeStatement, predicateDisagreement } from './verify-attestation.ts';
import { testResultStatement } from './test-result-statement.ts';

/** What the bundle's attestation showed: its result and how many files it attests. */
export interface BundledAttestation {
  result: string;
  subjects: number;
}

type Outcome = { problem: string } | { notes: string[]; attestation?: BundledAttestation };

/** The first path at which two JSON values differ (`predicate.configuration[1].annotations.seed`), or undefined when equal. */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return at || '(the whole)';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const path = Array.isArray(a) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
    const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path);
    if (found) return found;
  }
  return undefined;
}

/** The key that signed the manifest: the one given, else the one the bundle carries (checkSignature verified it already). */
const signerKey = (publicKey: KeyObject | undefined, member: (name: string) => Buffer | undefined): KeyObject | undefined =>
  publicKey ?? publicKeyOfPem(member(BUNDLED_KEY_FILE)?.toString('utf8') ?? '');

/**
 * Checks the bundle's attestation.intoto.jsonl, once the manifest, its signature, the hashes and
 * conformance.json are verified. A bundle without one (written before it existed) passes with a note.
 */
export function checkBundledAttestation(
  member: (name: string) => Buffer | undefined,
  manifest: Manifest,
  report: ConformanceReport,
  publicKey: KeyObject | undefined,
): Outcome {
  const data = member(ATTESTATION_FILE);
  if (!data) return { notes: [`no ${ATTESTATION_FILE}: bundled before the tool wrote one`] };
  const envelope = parseEnvelope(data.toString('utf8'), ATTESTATION_FILE);
  if (typeof envelope === 'string') return { problem: envelope };
  const signed = envelope.signatures.length > 0;
  if (manifest.signature === 'none' && signed) return { problem: `${ATTESTATION_FILE} is signed, but ${MANIFEST_FILE} says the bundle is unsigned` };
  if (manifest.signature === 'ed25519') {
    const key = signerKey(publicKey, member);
    if (!signed || !key || !envelopeSignedBy(envelope, key))
      return { problem: `${ATTESTATION_FILE}: its signature is not by the key that signed ${MANIFEST_FILE}` };
  }
  const statement = envelopeStatement(envelope, ATTESTATION_FILE);
  if ('problem' in statement) return statement;
  const subjects = manifest.files.filter((f) => f.name !== BUNDLED_KEY_FILE && f.name !== ATTESTATION_FILE);
  const expected = testResultStatement(report, subjects, {
    commandLine: manifest.commandLine,
    ...(manifest.redacted ? { redactedValues: manifest.redactedValues } : {}),
  });
  const said = statement.value;
  const disagreement = predicateDisagreement(said, report, ATTESTATION_FILE);
  if (disagreement) return { problem: disagreement };
  const differs = firstDifference(said, expected);
  if (differs) return { problem: `${ATTESTATION_FILE}: ${differs} differs from what ${REPORT_FILES.json} and ${MANIFEST_FILE} say` };
  return { notes: [], attestation: { result: said.predicate.result, subjects: said.subject.length } };
}

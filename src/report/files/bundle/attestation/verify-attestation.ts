/**
 * Checks an attestation.intoto.jsonl (docs/design.md 5.10): a DSSE envelope of the in-toto payload
 * type, its signature against the public key given (an unsigned envelope proves nothing of origin
 * and fails with a key), a Statement v1 with a Test Result predicate valid against the published
 * schemas (statement-schemas.ts), and, when the files are at hand, each subject's SHA-256 and
 * the attested conformance.json's verdict and rule statuses. The first failure is one line naming
 * what is wrong.
 */
import type { KeyObject } from 'node:crypto';
import { keyFingerprint } from '../signature.ts';
import { decodeBase64, type DsseEnvelope, envelopeSignedBy, IN_TOTO_PAYLOAD_TYPE, parseEnvelope } from './dsse-envelope.ts';
import { statementProblems } from './statement-schemas.ts';
import type { ConformanceReport } from '../../../model/model.ts';
import { checkedReport } from '../../../model/read-report.ts';
import { REPORT_FILES } from '../../write-reports.ts';
import { TEST_RESULT_PREDICATE, type TestResultStatement, testResultStatement } from './test-result-statement.ts';

/** What `verifyAttestation` found. */
export interface AttestationVerifyResult {
  verified: boolean;
  /** Why not: one line. */
  problem?: string;
  /** What the verification proves and what it does not. */
  notes: string[];
  /** The statement as signed (the payload's bytes that were verified, parsed), once it parsed. */
  statement?: TestResultStatement;
  key: 'given' | 'none';
}

/**
 * How the subjects are checked: the SHA-256 of the file a subject names, or undefined when there is
 * none; `from` names where they are. With `read`, the attested conformance.json is read too, and
 * the predicate must say what it says (result from the verdict, tests from the rule statuses).
 */
export interface SubjectFiles {
  digest(name: string): Promise<string | undefined>;
  from: string;
  read?(name: string): Promise<Buffer | undefined>;
}

/** Where the predicate's result or tests differ from what `report` says, as a line; undefined when they agree. */
export function predicateDisagreement(statement: TestResultStatement, report: ConformanceReport, name: string): string | undefined {
  const expected = testResultStatement(report, [], { commandLine: '' }).predicate;
  const said = statement.predicate;
  if (said.result !== expected.result)
    return `${name}: predicate.result is ${said.result}, ${REPORT_FILES.json}'s verdict ${report.summary.verdict} makes it ${expected.result}`;
  for (const list of ['passedTests', 'warnedTests', 'failedTests'] as const) {
    if (JSON.stringify(said[list]) !== JSON.stringify(expected[list])) return `${name}: predicate.${list} differs from ${REPORT_FILES.json}'s rule statuses`;
  }
  return undefined;
}

/** The attested conformance.json against the predicate, when the files can be read and it is a subject. */
async function reportProblem(statement: TestResultStatement, files: SubjectFiles, name: string): Promise<string | undefined> {
  if (!files.read || !statement.subject.some((s) => s.name === REPORT_FILES.json)) return undefined;
  const data = await files.read(REPORT_FILES.json);
  let report: ConformanceReport;
  try {
    report = checkedReport(JSON.parse(data?.toString('utf8') ?? ''), REPORT_FILES.json);
  } catch (error) {
    return `${REPORT_FILES.json} in ${files.from} is not a report (${String((error as Error).message).split('\n')[0]})`;
  }
  return predicateDisagreement(statement, report, name);
}

type Checked<T> = { value: T } | { problem: string };

/** The statement the envelope's payload holds, parsed from the very bytes the signature covers. */
export function envelopeStatement(envelope: DsseEnvelope, name: string): Checked<TestResultStatement> {
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return { problem: `${name}: payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  let statement: unknown;
  try {
    statement = JSON.parse(decodeBase64(envelope.payload)!.toString('utf8'));
  } catch (error) {
    return { problem: `${name}: the payload is not JSON (${(error as Error).message})` };
  }
  const [problem] = statementProblems(statement);
  if (problem) return { problem: `${name}: ${problem}` };
  const type = (statement as { predicateType: string }).predicateType;
  if (type !== TEST_RESULT_PREDICATE) return { problem: `${name}: predicateType is ${type}, not ${TEST_RESULT_PREDICATE}` };
  return { value: statement as TestResultStatement };
}

/** The envelope's signature against `publicKey`, or what its absence means. */
function signatureStep(envelope: DsseEnvelope, name: string, publicKey: KeyObject | undefined): { problem: string } | { notes: string[] } {
  const signed = envelope.signatures.length > 0;
  if (!publicKey) {
    if (signed) return { problem: `${name} is signed: give the signer's public key (--public-key public.pem) to check it` };
    return { notes: ['unsigned: no proof of origin, nor that the statement is the one written'] };
  }
  if (!signed) return { problem: `${name} is unsigned: nothing matches the public key given (no proof of origin)` };
  if (!envelopeSignedBy(envelope, publicKey))
    return {
      problem: `${name}: signature does not match the public key given (${keyFingerprint(publicKey)}): the statement changed, or another key signed it`,
    };
  return { notes: [`signed by the public key given (${keyFingerprint(publicKey)})`] };
}

/** Each subject's file has the statement's SHA-256; the first that does not, as a line. */
async function subjectsProblem(statement: TestResultStatement, files: SubjectFiles): Promise<string | undefined> {
  for (const subject of statement.subject) {
    const digest = await files.digest(subject.name);
    if (digest === undefined) return `${subject.name} is not in ${files.from} (the attestation names it)`;
    if (digest !== subject.digest.sha256) return `${subject.name}: SHA-256 differs from the attestation`;
  }
  return undefined;
}

/** Verifies an envelope's text against `publicKey` and, with `files`, its subjects. */
export async function verifyAttestation(text: string, name: string, publicKey?: KeyObject, files?: SubjectFiles): Promise<AttestationVerifyResult> {
  const key = publicKey ? 'given' : 'none';
  const envelope = parseEnvelope(text, name);
  if (typeof envelope === 'string') return { verified: false, problem: envelope, notes: [], key };
  const signature = signatureStep(envelope, name, publicKey);
  if ('problem' in signature) return { verified: false, problem: signature.problem, notes: [], key };
  const statement = envelopeStatement(envelope, name);
  if ('problem' in statement) return { verified: false, problem: statement.problem, notes: [], key };
  const notes = [...signature.notes];
  if (files) {
    const problem = (await subjectsProblem(statement.value, files)) ?? (await reportProblem(statement.value, files, name));
    if (problem) return { verified: false, problem, notes: [], statement: statement.value, key };
    notes.push(`${statement.value.subject.length} subjects have their SHA-256 in ${files.from}`);
    if (files.read) notes.push(`its result and tests agree with ${REPORT_FILES.json}`);
  } else {
    notes.push('subjects not checked: give --bundle FILE or --subjects DIR');
  }
  return { verified: true, notes, statement: statement.value, key };
}

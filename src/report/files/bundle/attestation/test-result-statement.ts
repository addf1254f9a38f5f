/**
 * The in-toto Statement v1 of a run (github.com/in-toto/attestation, spec/v1/statement.md) with a
 * Test Result predicate (spec/predicates/test-result.md, `https://in-toto.io/attestation/test-result/v0.1`):
 * the subjects are the bundled report files by SHA-256, the predicate the verdict as `result`,
 * the rule ids as passed, warned and failed tests, and `configuration` the resource descriptors
 * that repeat the run (the tool, the command with its seed and profile, the target, the schemas).
 * Built from the report and the files' names and digests alone (never their bytes), and from
 * nothing personal: rule ids, settings, a URL and hashes (docs/design.md 5.10).
 */
import { PACKAGE_NAME } from '../../../../core/version.ts';
import type { ConformanceReport, ReportRule } from '../../../model/model.ts';
import { byName } from '../../../../core/text.ts';
import { runEndedAt } from '../manifest.ts';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';

/** A ResourceDescriptor (spec/v1/resource_descriptor.md): one of uri, digest or content at least. */
export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  content?: string;
  mediaType?: string;
  annotations?: Record<string, unknown>;
}

export type TestResultValue = 'PASSED' | 'WARNED' | 'FAILED';

/** The Test Result predicate, field for field as published. */
export interface TestResultPredicate {
  result: TestResultValue;
  configuration: ResourceDescriptor[];
  url?: string;
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
}

export interface TestResultStatement {
  _type: typeof STATEMENT_TYPE;
  subject: { name: string; digest: { sha256: string } }[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: TestResultPredicate;
}

/** One attested file: its name in the bundle and the SHA-256 of its bytes as bundled. */
export interface AttestedFile {
  name: string;
  sha256: string;
}

/** What the statement says that the report does not: the command line (secrets removed), whether personal values were replaced. */
export interface StatementFacts {
  commandLine: string;
  redactedValues?: number;
}

/** Which list of the predicate a rule goes to; a skipped rule was not run and is in none. */
export function testListOf(rule: Pick<ReportRule, 'status' | 'blocking'>): 'passedTests' | 'warnedTests' | 'failedTests' | undefined {
  if (rule.status === 'passed') return 'passedTests';
  if (rule.status === 'skipped') return undefined;
  // A crashed check and a failure that blocks (a documented rule, or any under --strict) fail; a
  // convention or open point that failed without blocking warns, and so does an inconclusive rule
  // (nothing failed: too few cases judged it; when it blocks, `result` says FAILED).
  if (rule.status === 'error' || (rule.status === 'failed' && rule.blocking)) return 'failedTests';
  return 'warnedTests';
}

/**
 * The predicate's `result` from the verdict: FAILED for every verdict but conformant (conformance
 * is earned: inconclusive, error and interrupted runs did not earn it, and a run that exits non-zero
 * never attests a pass); a conformant run is WARNED when a rule warned (a convention failed, a rule
 * inconclusive without blocking), else PASSED. So `result == "PASSED"` is the strict gate and
 * `result != "FAILED"` the gate of `conformance run`'s exit 0.
 */
export function testResultOf(report: ConformanceReport): TestResultValue {
  if (report.summary.verdict !== 'conformant') return 'FAILED';
  return report.rules.some((r) => testListOf(r) === 'warnedTests') ? 'WARNED' : 'PASSED';
}

/** A base URL as a ResourceURI: scheme and authority lowercase (spec/v1/field_types.md). */
const resourceUri = (url: string): string => url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, (origin) => origin.toLowerCase());

/** `pkg:npm/name@version`, the scope's `@` percent-encoded as the package URL spec asks. */
const npmPackageUrl = (name: string, version: string): string => `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;

/** The resource descriptors that repeat the run: the tool, the command and its settings, the target, the schemas. */
function configurationOf(report: ConformanceReport, facts: StatementFacts): ResourceDescriptor[] {
  const settings = {
    seed: report.seed,
    profile: report.profile,
    ...(report.runs !== undefined ? { runs: report.runs } : {}),
    strict: report.strict,
    ...(report.ruleFilter ? { ruleFilter: report.ruleFilter } : {}),
    ...(report.shard ? { shard: report.shard } : {}),
    startedAt: report.startedAt,
    endedAt: runEndedAt(report),
    redacted: facts.redactedValues !== undefined,
    redactedValues: facts.redactedValues ?? 0,
  };
  const { target } = report;
  return [
    { name: 'tool', uri: npmPackageUrl(PACKAGE_NAME, report.tool.version), annotations: { command: report.tool.name, version: report.tool.version } },
    { name: 'command', content: Buffer.from(facts.commandLine, 'utf8').toString('base64'), mediaType: 'text/plain; charset=utf-8', annotations: settings },
    {
      name: 'target',
      uri: resourceUri(target.baseUrl),
      annotations: {
        embedded: target.embedded,
        ...(target.reading ? { reading: target.reading } : {}),
        ...(target.fiatAccountIds ? { fiatAccountIds: target.fiatAccountIds } : {}),
      },
    },
    // The schemas' hash as the report states it: SHA-256 over each schema file's name, a NUL and its text, in name order.
    { name: 'schemas', digest: { sha256: report.schemasHash } },
  ];
}

/** The statement of `report` over `subjects` (every bundled file but the manifest, its signature and this statement's envelope). */
export function testResultStatement(report: ConformanceReport, subjects: readonly AttestedFile[], facts: StatementFacts): TestResultStatement {
  const lists: Record<'passedTests' | 'warnedTests' | 'failedTests', string[]> = { passedTests: [], warnedTests: [], failedTests: [] };
  for (const rule of report.rules) {
    const list = testListOf(rule);
    if (list) lists[list].push(rule.id);
  }
  return {
    _type: STATEMENT_TYPE,
    subject: [...subjects].sort(byName).map((f) => ({ name: f.name, digest: { sha256: f.sha256 } })),
    predicateType: TEST_RESULT_PREDICATE,
    predicate: { result: testResultOf(report), configuration: configurationOf(report, facts), ...lists },
  };
}

/**
 * conformance.json: the report other tools read (DESIGN.md section 5). Bump REPORT_VERSION on any
 * change that is not purely additive.
 */
import type { Basis, Operation } from '../core/catalogue.ts';
import type { RecordedRequest, RecordedResponse, TransportError } from '../core/exchange.ts';

export const REPORT_VERSION = '1.2.0';

export type RuleStatus = 'passed' | 'failed' | 'skipped' | 'error';
export type Verdict = 'conformant' | 'non-conformant' | 'error';

export interface ReportFailure {
  message: string;
  instancePath?: string;
  /** The label and intent of the case, e.g. "metadata with 7 pairs" / invalid. */
  case: { operation: Operation; label: string; mode: string; violates?: string; exercises?: string; auth?: 'none' | 'invalid' };
  request: RecordedRequest;
  response?: RecordedResponse;
  error?: TransportError;
  /** A curl command line that reproduces the request (credentials as $CONFORMANCE_TOKEN). */
  curl: string;
  seed: number;
  /** fast-check's replay path of the shrunk counterexample, when it came from a property. */
  path?: string;
}

/** The exit code of a run with this report: 0 conformant, 1 otherwise (usage and reach errors never get a report verdict of their own). */
export const exitCodeOf = (report: ConformanceReport): 0 | 1 => (report.summary.verdict === 'conformant' ? 0 : 1);

export interface ReportRule {
  id: string;
  operation: Operation;
  section: string;
  basis: Basis;
  title: string;
  status: RuleStatus;
  /**
   * Whether this rule keeps the verdict from conformant (since 1.2.0): failed and documented,
   * failed under --strict, or errored. Decided once by the report builder; every reader uses it.
   */
  blocking: boolean;
  /** How many exchanges or scenarios judged this rule. */
  cases: number;
  /** Why a rule was skipped or errored. */
  reason?: string;
  failures: ReportFailure[];
}

export interface ConformanceReport {
  reportVersion: string;
  tool: { name: string; version: string };
  /** The target without credentials; its fiat account ids (since 1.1.0) are no secret and make a run repeatable. */
  target: { baseUrl: string; embedded: boolean; reading?: Record<string, string>; fiatAccountIds?: string[] };
  schemasHash: string;
  seed: number;
  profile: string;
  /** Random cases per rule on top of the examples (since 1.1.0): with the seed, what regenerates the run. */
  runs?: number;
  /** The --rule prefixes the run was limited to, when it was (since 1.1.0). */
  ruleFilter?: string[];
  strict: boolean;
  startedAt: string;
  durationMs: number;
  summary: {
    verdict: Verdict;
    rules: number;
    passed: number;
    failed: number;
    skipped: number;
    errors: number;
    requests: number;
  };
  rules: ReportRule[];
  /** Response fields the document does not list, with the paths where they were seen. */
  undocumentedFields: { path: string; operation: Operation; count: number }[];
}

/**
 * conformance.json: the report other tools read (docs/design.md section 5.5). Bump REPORT_VERSION on any
 * change that is not purely additive.
 */
import type { OpenSpaceCoverage } from '../../rules/open-points/combinations-judged.ts';
import type { UnauthenticatedKind } from '../../core/case.ts';
import type { Basis, Operation } from '../../core/catalogue.ts';
import type { CombinedValue, Intent, ObservedContract, OpenProbe } from '../../core/open-point.ts';
import type { RecordedRequest, RecordedResponse, TransportError } from '../../core/exchange.ts';
import { EXIT, exitCodeOfSignal } from '../../core/errors.ts';
import { accountsLeftChanged, type RestoreSummary } from '../../engine/restore/restore-summary.ts';
import type { LedgerEntry } from '../../engine/identity-ledger.ts';
import type { RuledOutBy } from '../../engine/events.ts';
import type { ProblemData } from '../../rules/problem-kinds.ts';

export const REPORT_VERSION = '1.13.0';

/**
 * `inconclusive` (since 1.3.0): judged by fewer cases than the profile's minimum, so neither
 * passed nor failed. `skipped`: not judged at all because the run could not start; since 1.6.0
 * also, in the report of one shard, a rule whose own cases another shard sends (or judged on every
 * exchange, too few cases in this shard alone): the merged report gives its status.
 */
export type RuleStatus = 'passed' | 'failed' | 'inconclusive' | 'skipped' | 'error';
/**
 * `inconclusive` (since 1.3.0): nothing failed, but a blocking rule was not judged enough.
 * `interrupted` (since 1.4.0): the user stopped the run; the rules show what was judged until then.
 */
export type Verdict = 'conformant' | 'non-conformant' | 'inconclusive' | 'interrupted' | 'error';

/**
 * A failure: its message and, since 1.11.0, what it is as data (`kind` and the `params` of that
 * kind, src/rules/problem-kinds.ts), by which a reader groups a rule's failures. A report before
 * 1.11.0 has neither.
 */
export type ReportFailure = FailureEvidence & (ProblemData | { kind?: undefined; params?: undefined });

/** What a failure says besides its kind: the message, where it points, the exchange and how to repeat it. */
export interface FailureEvidence {
  message: string;
  instancePath?: string;
  /**
   * The label and intent of the case, e.g. "metadata with 7 pairs" / invalid / forbidden. `intent`
   * and `open` since 1.7.0 (caseIntent in src/core/case.ts); an older report's intent follows from
   * its mode (case-text.ts).
   */
  case: {
    operation: Operation;
    label: string;
    mode: string;
    intent?: Intent;
    violates?: string;
    exercises?: string;
    open?: OpenProbe;
    /** A documented rule's case combined with open values the target accepted alone (since 1.13.0). */
    combined?: CombinedValue[];
    /** A case about HTTP around the operation (another method, an empty body): the one rule that judges it (since 1.8.0). */
    around?: string;
    auth?: UnauthenticatedKind;
  };
  request: RecordedRequest;
  response?: RecordedResponse;
  error?: TransportError;
  /** A curl command line that reproduces the request (credentials as $CONFORMANCE_TOKEN). */
  curl: string;
  seed: number;
  /** fast-check's replay path of the shrunk counterexample, when it came from a property. */
  path?: string;
}

/**
 * The exit code of a run with this report (docs/design.md section 5.3): 0 conformant, 1 non-conformant or a
 * crashed check, 3 when the target or the token endpoint stopped answering mid-run, 4
 * inconclusive, 5 instead of 0 or 4 when the run left a fiat account changed (accountsLeftChanged),
 * 128 + the signal's number when interrupted (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
 */
export function exitCodeOf(report: ConformanceReport): number {
  const stop = report.stopped;
  if (stop?.kind === 'interrupted') return exitCodeOfSignal(stop.signal);
  // --fail-fast and the request budget judged what they judged: the verdict says the rest.
  if (stop && stop.kind !== 'fail-fast' && stop.kind !== 'budget') return EXIT.unreachable;
  const verdict = verdictExitCode(report.summary.verdict);
  // A fiat account left changed is worth a red CI even on a conformant run; a failure says more.
  if (verdict !== EXIT.nonConformant && accountsLeftChanged(report.restore).length) return EXIT.leftChanged;
  return verdict;
}

function verdictExitCode(verdict: Verdict): number {
  switch (verdict) {
    case 'conformant':
      return EXIT.conformant;
    case 'inconclusive':
      return EXIT.inconclusive;
    default:
      return EXIT.nonConformant;
  }
}

/** How well a rule was judged (since 1.3.0); see Coverage in src/engine/events.ts. */
export interface RuleCoverage {
  fixed: number;
  random: number;
  distinctInputs: number;
  minimum: { fixed: number; random: number };
}

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
  /** Fixed and random cases apart, distinct inputs, and the minimum asked (since 1.3.0). */
  coverage?: RuleCoverage;
  /** Why a rule was skipped, inconclusive or errored: one line, with what would fix it. */
  reason?: string;
  /**
   * Since 1.12.0, on an inconclusive rule: the run's configuration kept it from being judged
   * whatever the target does (one fiat account for isolation, a --max-requests budget), and the
   * smallest change that would judge it. The rule was not run: it blocks the verdict only under
   * --strict. An older report has none: its inconclusive rules block as their basis says.
   */
  ruledOutBy?: RuledOutBy;
  failures: ReportFailure[];
  /** How many cases showed a problem of this rule (since 1.12.0): `failures` keeps a few of them. */
  failedCases?: number;
}

/** One operation's answers: requests, counts by status code (`none`: no usable answer), latency of the answers in ms. */
export interface ReportOperation {
  operation: Operation;
  requests: number;
  statuses: Record<string, number>;
  latencyMs: { median: number; p95: number; max: number };
}

/**
 * How the target answered at the transport level (since 1.4.0): `exchanges` judged, `unanswered`
 * of them without a usable HTTP answer (timed out, dropped or reset, broken framing as `other`),
 * and `limit`, the share of unanswered requests above which the run cannot be conformant.
 */
export interface ReportTransport {
  exchanges: number;
  unanswered: number;
  byKind: { timeout: number; connection: number; other: number };
  limit: number;
}

/**
 * How the run authenticated, without any secret (issue 31): what a failure's curl line needs
 * before it runs (reproduce-setup.ts). A report without it predates it.
 */
export type ReportCredentials = { kind: 'none' } | { kind: 'static' } | { kind: 'client-credentials'; tokenUrl: string; scope?: string };

export interface ConformanceReport {
  reportVersion: string;
  tool: { name: string; version: string };
  /** The target without credentials; its fiat account ids (since 1.1.0) are no secret and make a run repeatable. */
  target: { baseUrl: string; embedded: boolean; reading?: Record<string, string>; fiatAccountIds?: string[]; credentials?: ReportCredentials };
  schemasHash: string;
  seed: number;
  profile: string;
  /** Random cases per rule on top of the examples (since 1.1.0): with the seed, what regenerates the run. */
  runs?: number;
  /** The --rule prefixes the run was limited to, when it was (since 1.1.0). */
  ruleFilter?: string[];
  /**
   * Set when the run was one shard of a sharded run, `--shard index/count` (since 1.6.0): it sent
   * only its share of the cases, so its verdict is not the API's; `conformance merge` joins the
   * shards' reports into the report of the whole run (which has no `shard`).
   */
  shard?: { index: number; count: number };
  strict: boolean;
  startedAt: string;
  durationMs: number;
  summary: {
    verdict: Verdict;
    rules: number;
    passed: number;
    failed: number;
    skipped: number;
    /** Since 1.3.0. */
    inconclusive?: number;
    errors: number;
    requests: number;
    /** Requests that got no usable HTTP answer: timeout, dropped connection, broken framing (since 1.4.0). */
    unanswered?: number;
    /**
     * Why the verdict is not what the rules alone say (since 1.4.0): too many requests got no
     * usable answer, so a run that would be conformant is inconclusive; since 1.6.0 also, in a
     * shard's report, that the shard reports must be merged for the verdict. One line, every renderer shows it.
     */
    reason?: string;
    /**
     * The cases that varied an open point, by the target's answer (since 1.7.0, always written
     * since): `accepted` a 2xx, `refused` a 4xx other than 429. A refusal whose guaranteed twin
     * was refused too is counted here but left out of the observed contract.
     */
    openCases?: { accepted: number; refused: number };
  };
  /**
   * Set when the run ended early (since 1.3.0): the target stopped answering (`unreachable`); since
   * 1.4.0 also the token endpoint stopped issuing tokens (`token-endpoint`) or the user interrupted
   * the run (`interrupted`, with the signal); since 1.5.0 --fail-fast ended it at the first
   * failure of `rule` (`fail-fast`: the verdict is the rules', non-conformant); since 1.12.0 an
   * operation answered 403 to every request with the run's credentials (`authorization`: verdict
   * error, exit 3). The rules then show what was judged until then.
   */
  stopped?: {
    kind: 'unreachable' | 'token-endpoint' | 'interrupted' | 'fail-fast' | 'budget' | 'authorization';
    message: string;
    signal?: string;
    requests: number;
    rule?: string;
  };
  /**
   * Since 1.9.0, a run with --max-requests: the budget, the requests kept for housekeeping, what
   * the plan fitted into it and what it left out, the requests sent and those refused (never sent).
   */
  budget?: { maxRequests: number; reserved: number; planned: number; used: number; refused: number; trimmed: string[] };
  /**
   * Shrinking's request budgets, per failure and per run, the requests it spent and the rules
   * whose shrink a budget cut short: their evidence is the smallest failure found until then (since 1.5.0).
   */
  shrinking?: { perFailure: number; perRun: number; requests: number; cutShort: string[] };
  /** The requests judged and those without a usable answer, by kind (since 1.4.0). */
  transport?: ReportTransport;
  /** How the target answered each operation: status codes and latency (since 1.12.0; operation-answers.ts). */
  operations?: ReportOperation[];
  rules: ReportRule[];
  /**
   * What the target accepted and refused where the document leaves the choice open (since 1.7.0,
   * always written since: `{version: 1, limits: []}` when no open case was tried). Absent in an
   * older report: its run tried no open point (report-contract.ts).
   */
  observedContract?: ObservedContract;
  /**
   * Which documented rules were judged combined with open values the target accepted, and with
   * which values, how many cases (since 1.13.0; rules/open-points/combinations.ts). Absent when no
   * combination was sent (a run without those rules, an older report).
   */
  openSpace?: OpenSpaceCoverage;
  /** Response fields the document does not list, with the paths where they were seen. */
  undocumentedFields: { path: string; operation: Operation; count: number }[];
  /** What the run put back on the pool's fiat accounts, or that restore was off (since 1.9.0). */
  restore?: RestoreSummary;
  /**
   * Every identity the run created: id, ref_id, run tag, created_at (since 1.9.0; also
   * created-identities.json). Since 1.10.0 each entry says its `outcome`, and the creates whose
   * answer was lost are there too, `unknown`, with the ref_id they sent and why.
   */
  createdIdentities?: LedgerEntry[];
}

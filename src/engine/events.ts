/**
 * What the engine tells whoever listens (docs/design.md section 4.5): the rules it judges, every exchange, and
 * each rule's outcome. The engine knows nothing of report formats; src/report folds these events
 * into conformance.json and the other reports.
 */
import type { BudgetSummary } from './request-budget.ts';
import type { OpenSpaceCoverage } from '../rules/open-points/combinations-judged.ts';
import type { ObservedContract } from '../core/open-point.ts';
import type { RuleDefinition } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import type { UndocumentedField } from '../rules/undocumented-fields.ts';
import type { AnswerCounts } from './answer-tally.ts';
import type { ShrinkSummary } from './shrink-budget.ts';
import type { RestoreSummary } from './restore/restore-summary.ts';
import type { LedgerEntry } from './identity-ledger.ts';

/** One problem found, with the exchange that shows it and, for a shrunk property, fast-check's replay path. */
export interface Finding {
  problem: Problem;
  exchange: Exchange;
  path?: string;
}

/**
 * How well a rule was judged: cases from the deterministic examples and scenarios (`fixed`) and
 * from random generation (`random`) counted apart, how many different request bodies they were,
 * and the minimum the run's profile asks of the rule. `shortfall` says, in one line, why a rule
 * stayed below its minimum and what would fix it; it is absent when the minimum was met.
 */
export interface Coverage {
  fixed: number;
  random: number;
  distinctInputs: number;
  minimum: { fixed: number; random: number };
  shortfall?: string;
  /** Set with a shortfall the run's settings caused whatever the target does (one account, a budget): which setting, and the fix. */
  ruledOutBy?: RuledOutBy;
}

/** A setting of the run that keeps a rule from being judged, and the smallest change that would judge it. */
export interface RuledOutBy {
  /** The setting, as a flag: `--fiat-account-id`, `--max-requests`. */
  setting: string;
  /** e.g. "give a second account id (--fiat-account-id twice)", "--max-requests 742". */
  fix: string;
}

/**
 * Why a run stopped before its end: the target stopped answering (`unreachable`), the token
 * endpoint stopped issuing tokens (`token-endpoint`), the user interrupted it (`interrupted`,
 * with the signal), or --fail-fast saw its first failure (`fail-fast`, with the rule), or the
 * request budget refused a request (`budget`, --max-requests: that request was not sent), or an
 * operation answered 403 to every request with the run's credentials (`authorization`: a token
 * whose scopes do not cover it; engine/operation-access.ts).
 */
export interface Stop {
  kind: 'unreachable' | 'token-endpoint' | 'interrupted' | 'fail-fast' | 'budget' | 'authorization';
  message: string;
  /** The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP). */
  signal?: string;
  /** Requests sent when the run stopped. */
  requests: number;
  /** The rule being judged when it stopped (fail-fast: the rule that failed). */
  rule?: string;
}

/** What a run found for one rule. */
export interface RuleOutcome {
  rule: RuleDefinition;
  /** Exchanges or scenario outcomes that judged the rule. */
  cases: number;
  coverage: Coverage;
  /** The evidence kept: the first is the minimal one when a property shrank it. */
  findings: Finding[];
  /** A check of this rule threw. */
  crashed: boolean;
  /** Cases that showed a problem of this rule, of which `findings` keeps at most MAX_FAILURES_PER_RULE. */
  failedCases?: number;
  /** How many requests the run had sent when this rule first saw a problem (for the benchmark). */
  firstFailureAtRequest?: number;
}

/** The phases of a run, in order (runner.ts). */
export type PhaseName = 'probe' | 'fixed-cases' | 'scenarios' | 'random-cases' | 'scenarios-after-random-cases' | 'shrinking' | 'scenarios-at-end';

export type RunEvent =
  | { type: 'run-start'; rules: readonly RuleDefinition[]; fiatAccountIds: readonly string[] }
  /** A phase of the run begins or ends (phases/phase.ts); a phase cut short by a stop has no end. */
  | { type: 'phase-start'; phase: PhaseName }
  | { type: 'phase-end'; phase: PhaseName }
  | { type: 'rule-start'; rule: RuleDefinition }
  | { type: 'exchange'; exchange: Exchange }
  /**
   * A rule saw its first problem, or a check of it crashed: it will end failed (or error). Sent
   * once per rule as soon as it is known, so a console can count failures while the run goes;
   * `atRequest`: exchanges judged by then.
   */
  | { type: 'rule-failing'; rule: RuleDefinition; atRequest: number }
  | { type: 'rule-end'; outcome: RuleOutcome }
  | {
      type: 'run-end';
      outcomes: RuleOutcome[];
      startedAt: string;
      durationMs: number;
      requests: number;
      undocumentedFields: UndocumentedField[];
      /** Exchanges judged, and those that got no usable HTTP answer (timeout, connection, broken framing). */
      transport?: AnswerCounts;
      /** The shrink budgets, what shrinking spent and which rules' shrinks were cut short. */
      shrinking?: ShrinkSummary;
      /** Set when the run ended early; the outcomes then cover what was judged until then. */
      stopped?: Stop;
      /** --max-requests: the budget, what the plan fitted into it and what was sent. */
      budget?: BudgetSummary;
      /** What the target accepted and refused where the document leaves the choice open. */
      observedContract?: ObservedContract;
      /** Which documented rules were judged with which accepted open values. */
      openSpace?: OpenSpaceCoverage;
      /** What was put back on the pool accounts (or that restore was off). */
      restore?: RestoreSummary;
      /** Every identity the run created. */
      createdIdentities?: LedgerEntry[];
    };

export type { BudgetSummary };

export type RunListener = (event: RunEvent) => void | Promise<void>;

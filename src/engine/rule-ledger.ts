/**
 * The ledger of rule outcomes: per selected rule, the cases that judged it, the evidence kept,
 * whether a check crashed, and its coverage tally; when each rule starts and ends (the rule-start
 * and rule-end events) and which rules fail while the run goes (rule-failing).
 */
import { getRule, type RuleDefinition, type RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import type { UncountedCases } from './uncounted-cases.ts';
import { coverageOf, emptyTally, minimumUnder, type Minimum, type Refusals, type Tally } from './coverage.ts';
import { asEvidence, problemAsEvidence } from './evidence.ts';
import type { Finding, RuledOutBy, RuleOutcome, RunEvent } from './events.ts';
import type { InputIds } from './input-ids.ts';

/** Evidence kept per rule: the first is the minimal one when a property shrank it. */
export const MAX_FAILURES_PER_RULE = 5;

type RuleRecord = Pick<RuleOutcome, 'cases' | 'findings' | 'crashed' | 'firstFailureAtRequest' | 'failedCases'>;

export interface LedgerParts {
  selected: readonly RuleDefinition[];
  minimums: ReadonlyMap<RuleId, Minimum>;
  uncounted: UncountedCases;
  inputIds: InputIds;
  refusals: Refusals;
  /** Rules the request budget left short of their planned cases: why, per rule. */
  budgetNotes?: ReadonlyMap<string, string>;
  /** The setting and fix of a rule the budget leaves short: ruled out by the configuration, not by the target. */
  budgetRuledOut?: RuledOutBy;
  /** Whether the target merges metadata: rules that need fresh keys then ask no random cases. */
  merging(): boolean;
  /** Why the run stopped early, if it did: the cause of every shortfall then. */
  stoppedEarly(): string | undefined;
  /** A rule saw a problem (under --fail-fast, the run may end). */
  onFailure(rule: RuleDefinition): void;
  emit(event: RunEvent): Promise<void>;
}

export class RuleLedger {
  private readonly records = new Map<RuleId, RuleRecord>();
  private readonly tallies = new Map<RuleId, Tally>();
  /** Rules that saw their first problem (or a crashed check) since the last `announceFailing`. */
  private readonly failingNow: RuleId[] = [];
  private readonly failing = new Set<RuleId>();
  private readonly begun = new Set<RuleId>();
  private readonly finished = new Set<RuleId>();
  /** Exchanges judged so far: where a rule first saw a problem, whatever was still in flight. */
  judgedRequests = 0;
  /** The rule being judged now (where a stopped run stopped). */
  currentRule: RuleDefinition | undefined;

  constructor(private readonly parts: LedgerParts) {
    for (const rule of parts.selected) {
      this.records.set(rule.id as RuleId, { cases: 0, findings: [], crashed: false, failedCases: 0 });
      const budgetNote = parts.budgetNotes?.get(rule.id);
      const ruledOutBy = budgetNote && parts.budgetRuledOut ? { ruledOutBy: parts.budgetRuledOut } : {};
      this.tallies.set(rule.id as RuleId, { ...emptyTally(), ...(budgetNote ? { budgetNote } : {}), ...ruledOutBy });
    }
  }

  /** Whether the run judges this rule. */
  has(rule: string): boolean {
    return this.records.has(rule as RuleId);
  }

  /** The coverage tally of a selected rule (undefined for a rule the run does not judge). */
  tally(rule: RuleId): Tally | undefined {
    return this.tallies.get(rule);
  }

  /**
   * Counts a case that judged `rule`, and keeps what it showed as evidence. `random`: a random
   * case (or its twin, or a shrink's candidate), else a fixed one (examples, scenarios, reads);
   * `path`: fast-check's replay path of the case.
   */
  record(rule: RuleId, problems: Problem[], exchange: Exchange, { path, random = false }: { path?: string; random?: boolean } = {}): void {
    this.count(rule, exchange, random);
    this.keepFindings(rule, problems, exchange, path);
  }

  /** Counts a case that judged `rule`: nothing of its exchange is kept. */
  private count(rule: RuleId, exchange: Exchange, random: boolean): void {
    const entry = this.records.get(rule);
    const tally = this.tallies.get(rule);
    const { uncounted, inputIds } = this.parts;
    if (!entry || !tally || uncounted.has(exchange.testCase)) return;
    entry.cases += 1;
    if (random) tally.random++;
    else tally.fixed++;
    tally.inputs.add(inputIds.of(exchange.testCase));
  }

  /** Keeps what an exchange showed as evidence of `rule`, at most MAX_FAILURES_PER_RULE findings; `front`: the minimal one. */
  keepFindings(rule: RuleId, problems: Problem[], exchange: Exchange, path?: string, front = false): void {
    const entry = this.records.get(rule);
    if (!entry || !problems.length) return;
    this.noteFailure(rule, entry);
    // Every failing case counts, kept or not (a shrunk one put in front was counted when it was judged).
    if (!front) entry.failedCases = (entry.failedCases ?? 0) + 1;
    if (!front && entry.findings.length >= MAX_FAILURES_PER_RULE) return;
    const evidence = asEvidence(exchange);
    const found = problems.map((problem): Finding => ({ problem: problemAsEvidence(problem), exchange: evidence, ...(path ? { path } : {}) }));
    // The minimal counterexample goes in front, its problems in the order the checks gave them.
    if (front) entry.findings.unshift(...found);
    else entry.findings.push(...found);
    if (entry.findings.length > MAX_FAILURES_PER_RULE) entry.findings.length = MAX_FAILURES_PER_RULE;
  }

  /** A case of `rule` was not sent (no account had room for its metadata): counted, with the first reason. */
  notSent(rule: RuleId, reason: string): void {
    const tally = this.tallies.get(rule);
    if (!tally) return;
    tally.unsent = { count: (tally.unsent?.count ?? 0) + 1, reason: tally.unsent?.reason ?? reason };
  }

  /** A check of `rule` threw: the rule ends in error. */
  crashed(rule: RuleId): void {
    const entry = this.records.get(rule);
    if (!entry) return;
    entry.crashed = true;
    this.flagFailing(rule);
  }

  /** When a rule first saw a problem; under --fail-fast, the first one that ends the run. */
  private noteFailure(rule: RuleId, entry: RuleRecord): void {
    entry.firstFailureAtRequest ??= this.judgedRequests;
    this.flagFailing(rule);
    this.parts.onFailure(getRule(rule));
  }

  private flagFailing(rule: RuleId): void {
    if (!this.records.has(rule) || this.failing.has(rule)) return;
    this.failing.add(rule);
    this.failingNow.push(rule);
  }

  /** Tells the listeners which rules fail now, while the run goes (their rule-end comes at the end). */
  async announceFailing(): Promise<void> {
    for (const rule of this.failingNow.splice(0)) {
      await this.parts.emit({ type: 'rule-failing', rule: getRule(rule), atRequest: this.records.get(rule)?.firstFailureAtRequest ?? this.judgedRequests });
    }
  }

  /** The rule judged now: rule-start, once per rule. */
  async begin(rule: RuleDefinition): Promise<void> {
    this.currentRule = rule;
    if (this.begun.has(rule.id as RuleId)) return;
    this.begun.add(rule.id as RuleId);
    await this.parts.emit({ type: 'rule-start', rule });
  }

  /** The rule is judged: rule-end with its outcome, once per rule. */
  async finish(rule: RuleDefinition): Promise<void> {
    if (this.finished.has(rule.id as RuleId)) return;
    await this.begin(rule);
    this.finished.add(rule.id as RuleId);
    this.currentRule = undefined;
    await this.parts.emit({ type: 'rule-end', outcome: this.outcomeOf(rule) });
  }

  /** What the run found for a rule, with its coverage against its minimum. */
  outcomeOf(rule: RuleDefinition): RuleOutcome {
    const id = rule.id as RuleId;
    const { minimums, refusals } = this.parts;
    const minimum = minimumUnder(rule, minimums.get(id)!, this.parts.merging());
    return { rule, ...this.records.get(id)!, coverage: coverageOf(rule, this.tallies.get(id)!, minimum, refusals, this.parts.stoppedEarly()) };
  }
}

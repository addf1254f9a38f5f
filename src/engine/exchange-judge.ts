/**
 * Judges one exchange for every rule: all checks (src/rules), the identities created so far, and
 * for a refused case with a valid twin, the twin's verdict first. What it found goes to the
 * ledger, except for `focus` (the rule a shrink is about), whose problems are returned. Then the
 * exchange observers learn from it.
 */
import type { RuleId } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { CheckContext, Problem } from '../rules/check.ts';
import { successBody } from '../rules/checks/exchange-facts.ts';
import type { CreatedIdentities } from '../rules/create-identity/created-identities.ts';
import { judge, type Judgement } from '../rules/judge.ts';
import { comparesWithRequest, judgesSuccessBody } from '../rules/rule-facts.ts';
import type { RuleDefinition } from '../core/catalogue.ts';
import type { RunEvent } from './events.ts';
import type { RuleLedger } from './rule-ledger.ts';
import type { ValidTwins } from './valid-twins.ts';
import type { OpenPointBook } from '../rules/open-points/open-point-book.ts';
import { OPERATIONS } from '../core/operations.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';
import { isAround } from '../core/case.ts';

/** Learns from every exchange judged (metadata semantics, refusals, undocumented fields, a lost target). */
export interface ExchangeObserver {
  observe(exchange: Exchange): void | Promise<void>;
}

export interface JudgeOptions {
  /** The rule a shrink is about: its problems are returned, not recorded. */
  focus?: RuleId;
  /** fast-check's replay path of the case, kept with its findings. */
  path?: string;
  /** The pool account of the case, where its twin goes. */
  account?: string;
  /** A random case (or a shrink's candidate): counted apart from the fixed ones, and so is its twin. */
  random?: boolean;
}

export interface Judged {
  exchange: Exchange;
  focusProblems: Problem[] | null;
  /** The rules it failed. */
  failed: RuleId[];
}

export interface JudgeParts {
  selected: readonly RuleDefinition[];
  ledger: RuleLedger;
  context: CheckContext;
  created: CreatedIdentities;
  twins: ValidTwins;
  /** What the target accepts and refuses on the open points. */
  openPoints: OpenPointBook;
  /** Counted as the exchange arrives (before judging: an answer counts even if judging stops the run). */
  arrival: ExchangeObserver;
  /** Told once the exchange is judged, in this order. */
  observers: readonly ExchangeObserver[];
  checkGoOn(): void;
  emit(event: RunEvent): Promise<void>;
}

export class ExchangeJudge {
  constructor(private readonly parts: JudgeParts) {}

  async judge(exchange: Exchange, options: JudgeOptions = {}): Promise<Judged> {
    const { focus, path, random } = options;
    const { ledger } = this.parts;
    // The run's housekeeping (restore/account-restore.ts) is no case of any rule: judging it would be a bug.
    if (exchange.testCase.restore) throw new Error(`a restore request (${exchange.testCase.restore}) is never judged`);
    // An answer cut short by the interruption says nothing about the target: not judged.
    this.parts.checkGoOn();
    ledger.judgedRequests++;
    await this.parts.arrival.observe(exchange);
    await this.parts.emit({ type: 'exchange', exchange });
    const judgements = await this.judgements(exchange, options);
    if (exchange.testCase.open) await this.learnOpenPoint(exchange, options);
    if (successBody(exchange) && !isAround(exchange.testCase)) this.tallySilentSuccesses(exchange, judgements);
    let focusProblems: Problem[] | null = null;
    const failed: RuleId[] = [];
    for (const j of judgements) {
      if (j.crashed) ledger.crashed(j.rule);
      if (j.problems.length) failed.push(j.rule);
      if (j.rule === focus) focusProblems = j.problems;
      else ledger.record(j.rule, j.problems, exchange, { ...(path ? { path } : {}), ...(random ? { random } : {}) });
    }
    for (const observer of this.parts.observers) await observer.observe(exchange);
    await ledger.announceFailing();
    return { exchange, focusProblems, failed };
  }

  /** Every rule's judgement of the exchange, without those it cannot judge. */
  private async judgements(exchange: Exchange, { account, random }: JudgeOptions): Promise<Judgement[]> {
    const { ledger, twins } = this.parts;
    const c = exchange.testCase;
    const judgements = checkJudgements(exchange, this.parts.context, this.parts.created);
    const own = c.violates ?? c.exercises;
    const ownAt = judgements.findIndex((j) => j.rule === own);
    if (
      ownAt >= 0 &&
      twins.refusedWithTwin(c, exchange) &&
      !(await twins.accepted(c, account, (twin) => this.judge(twin, { ...twinOptions(account, random) })))
    ) {
      judgements.splice(ownAt, 1);
      const tally = ledger.tally(own!);
      if (tally) tally.twinRefused += 1;
    }
    return judgements;
  }

  /**
   * An open case adds to the observed contract: an acceptance, or a refusal whose guaranteed twin
   * was accepted (else the refusal is about something else, and the twin's refusal is the
   * finding). What no limit explains fails the rule of valid requests, with the refusal as evidence.
   */
  private async learnOpenPoint(exchange: Exchange, { account, random }: JudgeOptions): Promise<void> {
    const { twins, openPoints, ledger } = this.parts;
    const c = exchange.testCase;
    let findings: ReturnType<OpenPointBook['accepted']> = [];
    if (is2xx(exchange)) findings = openPoints.accepted(exchange);
    else if (
      twins.refusedWithTwin(c, exchange) &&
      (await twins.accepted(c, account, (twin) => this.judge(twin, twinOptions(account, random)))) &&
      // Metadata merged past 6 pairs explains the refusal: it is no limit of the open value.
      !this.parts.context.mergeMayExceedLimit(exchange)
    )
      findings = openPoints.refused(exchange);
    const rule = OPERATIONS[c.operation].validAcceptedRule;
    for (const f of findings) ledger.record(rule, f.problems, f.exchange, random ? { random } : {});
  }

  /** A success that holds none of a response rule's fields leaves that rule silent: counted, for its shortfall line. */
  private tallySilentSuccesses(exchange: Exchange, judgements: readonly Judgement[]): void {
    const judged = new Set(judgements.map((j) => j.rule));
    for (const rule of this.parts.selected) {
      if (rule.operation === exchange.testCase.operation && judgesSuccessBody(rule.id) && !judged.has(rule.id as RuleId))
        this.parts.ledger.tally(rule.id as RuleId)!.silentSuccesses++;
    }
  }
}

/**
 * Every check's judgement of an exchange and the identities created so far: the run's and a HAR's
 * judge (run/har-judge.ts) both start from it. An answer that is another create's identity does
 * not reflect its request: it fails id.distinct-identities alone (one root, one rule).
 */
export function checkJudgements(exchange: Exchange, context: CheckContext, created: CreatedIdentities): Judgement[] {
  const judgements = judge(exchange, context);
  const distinct = isAround(exchange.testCase) ? null : created.observe(exchange);
  if (!distinct) return judgements;
  judgements.push({ rule: 'id.distinct-identities', problems: distinct });
  return distinct.length ? judgements.filter((j) => !comparesWithRequest(j.rule)) : judgements;
}

/** How a twin is judged: on its case's account, random when its case is. */
export const twinOptions = (account: string | undefined, random: boolean | undefined): JudgeOptions => ({
  ...(account ? { account } : {}),
  ...(random ? { random } : {}),
});

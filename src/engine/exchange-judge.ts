/**
 * The live run's side of the one judge (rules/rule-judge.ts): it sends the valid twin a refusal
 * needs, counts the exchange, and records what the judge found in the ledger, except for `focus`
 * (the rule a shrink is about), whose problems are returned. Then the exchange observers learn
 * from it.
 */
import type { RuleDefinition, RuleId } from '../core/catalogue.ts';
import { isAround } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import { successBody } from '../rules/checks/exchange-facts.ts';
import type { Judgement } from '../rules/judge.ts';
import type { ExchangeVerdict, RuleJudge } from '../rules/rule-judge.ts';
import { judgesSuccessBody } from '../rules/rule-facts.ts';
import type { RunEvent } from './events.ts';
import type { RuleLedger } from './rule-ledger.ts';
import type { ValidTwins } from './valid-twins.ts';

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
  /** The one judge, and the state it keeps (identities created, open points, metadata). */
  rules: RuleJudge;
  /** The target's pool. */
  fiatAccountIds: readonly string[];
  twins: ValidTwins;
  /** Counted as the exchange arrives (before judging: an answer counts even if judging stops the run). */
  arrival: ExchangeObserver;
  /** Told once the exchange is judged, in this order. */
  observers: readonly ExchangeObserver[];
  /**
   * Asked before the exchange is judged: may stop the run (a RunStop) when the answer says the
   * credentials, not the target, are at fault (operation-access.ts: an operation closed to them).
   */
  admit?: (exchange: Exchange) => Promise<void>;
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
    await this.parts.admit?.(exchange);
    const { judgements, twinRefused, openPointFindings } = await this.verdict(exchange, options);
    const refusedTally = twinRefused && ledger.tally(twinRefused);
    if (refusedTally) refusedTally.twinRefused += 1;
    // No answer judged nothing: said in the rule's shortfall line, with its own fix.
    const { around, violates, exercises } = exchange.testCase;
    const own = exchange.response ? undefined : (around ?? violates ?? exercises);
    const unansweredTally = own && ledger.tally(own);
    if (unansweredTally) unansweredTally.unanswered = (unansweredTally.unanswered ?? 0) + 1;
    for (const f of openPointFindings) ledger.record(f.rule, f.problems, f.exchange, random ? { random } : {});
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

  /** The one judge's verdict (rules/rule-judge.ts), the twin of a refused case sent and judged here first when it is needed. */
  private verdict(exchange: Exchange, { account, random }: JudgeOptions): Promise<ExchangeVerdict> {
    const { twins, fiatAccountIds } = this.parts;
    const c = exchange.testCase;
    return this.parts.rules.judge(exchange, {
      fiatAccountIds,
      refusedWithTwin: (e) => twins.refusedWithTwin(c, e),
      twinAccepted: () => twins.accepted(c, account, (twin) => this.judge(twin, twinOptions(account, random))),
    });
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

/** How a twin is judged: on its case's account, random when its case is. */
export const twinOptions = (account: string | undefined, random: boolean | undefined): JudgeOptions => ({
  ...(account ? { account } : {}),
  ...(random ? { random } : {}),
});

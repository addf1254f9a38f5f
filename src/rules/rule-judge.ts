/**
 * The one judge of exchanges (docs/design.md section 4.2). Whatever sent the exchange (the live
 * run, a HAR sent again or read offline, a report's failing case sent again), it is judged here in
 * one order:
 * 1. every check (judge.ts), a crash being a finding of its rule;
 * 2. the identities created so far: an answer that is another create's identity fails
 *    id.distinct-identities alone, the checks that compare an answer with its request say nothing;
 * 3. a refusal with a valid twin judges its own rule only when the twin was accepted (else the
 *    target refuses something else, and the twin's refusal is the finding);
 * 4. an open case adds to the observed contract: an acceptance, or a refusal whose twin was
 *    accepted; what no limit explains fails the operation's rule of valid requests.
 * The scenarios' rules (ref_id repeats and races, update sequences) are judged by their scenario
 * live and by its `rejudge` from recorded exchanges (scenarios.ts), from the same state kept here.
 * What only the source knows it supplies through JudgeSource: whether a twin was accepted (the
 * live run sends it, a HAR links it, a report has none).
 */
import type { RuleId } from '../core/catalogue.ts';
import { isAround } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import { OPERATIONS } from '../core/operations.ts';
import type { CheckContext, Problem } from './check.ts';
import { is2xx } from './checks/exchange-facts.ts';
import { refusesOpenPoint } from './checks/status-codes.ts';
import { CreatedIdentities } from './create-identity/created-identities.ts';
import { judge, type Judgement } from './judge.ts';
import { OpenPointBook } from './open-points/open-point-book.ts';
import { comparesWithRequest } from './rule-facts.ts';
import { MetadataState } from './update-fiat-account/metadata-state.ts';

/** What only the source of an exchange knows about it. */
export interface JudgeSource<Verdict> {
  /** The target's pool of fiat accounts. */
  fiatAccountIds: readonly string[];
  /** Whether a valid twin decides what this refusal judges (the case has one, and its rule is judged). */
  refusedWithTwin(exchange: Exchange): boolean;
  /**
   * Whether the valid twin of this refused case was accepted: the live run sends it now (a
   * promise), recorded exchanges link it; undefined when the source cannot tell.
   */
  twinAccepted(exchange: Exchange): Verdict;
}

/**
 * Whether a valid twin decides what this refusal judges: an open value refused as a limit, or a
 * refusal (an answer, not a 2xx) of the case's own rule. Every source asks it; the live run also
 * asks only for the rules it selected and the cases that carry a twin (engine/valid-twins.ts).
 */
export function twinDecides(exchange: Exchange): boolean {
  const c = exchange.testCase;
  if (c.open) return refusesOpenPoint(exchange);
  return (c.violates ?? c.exercises) !== undefined && exchange.response !== undefined && !is2xx(exchange);
}

/** What the judge found in one exchange. */
export interface ExchangeVerdict {
  /** Each rule's judgement, without those the exchange cannot judge. */
  judgements: Judgement[];
  /** The case's own rule, left unjudged because its valid twin was refused too. */
  twinRefused?: RuleId;
  /** What the observed contract of the open points found (under the operation's rule of valid requests). */
  openPointFindings: { rule: RuleId; problems: Problem[]; exchange: Exchange }[];
}

/** The state judging keeps across exchanges: shared with the run (its restore, planning and scenarios read it). */
export interface JudgeState {
  metadata: MetadataState;
  created: CreatedIdentities;
  openPoints: OpenPointBook;
}

export const freshJudgeState = (): JudgeState => ({ metadata: new MetadataState(), created: new CreatedIdentities(), openPoints: new OpenPointBook() });

export class RuleJudge {
  constructor(readonly state: JudgeState = freshJudgeState()) {}

  /** The context every check is given: the pool, and whether merged metadata explains a refusal. */
  private context(fiatAccountIds: readonly string[]): CheckContext {
    return { fiatAccountIds, mergeMayExceedLimit: (e) => this.state.metadata.mergeMayExceedLimit(e) };
  }

  /** Judges an exchange the live run sent: the twin a refusal needs is asked (sent) in its turn. */
  async judge(exchange: Exchange, source: JudgeSource<Promise<boolean | undefined>>): Promise<ExchangeVerdict> {
    const judgements = this.checks(exchange, source);
    const twin = this.asksTwin(exchange, judgements, source) ? await source.twinAccepted(exchange) : undefined;
    return this.decide(exchange, judgements, twin);
  }

  /** Judges a recorded exchange (a HAR's, a report's case sent again): the twin's verdict is known or unknown, never asked. */
  judgeRecorded(exchange: Exchange, source: JudgeSource<boolean | undefined>): ExchangeVerdict {
    const judgements = this.checks(exchange, source);
    return this.decide(exchange, judgements, this.asksTwin(exchange, judgements, source) ? source.twinAccepted(exchange) : undefined);
  }

  /** Steps 1 and 2: the checks, and the identities created so far. */
  private checks(exchange: Exchange, source: { fiatAccountIds: readonly string[] }): Judgement[] {
    return checkJudgements(exchange, this.context(source.fiatAccountIds), this.state.created);
  }

  /** Whether the twin's verdict decides something: a refusal of the case's own rule, or of an open value. */
  private asksTwin(exchange: Exchange, judgements: readonly Judgement[], source: { refusedWithTwin(e: Exchange): boolean }): boolean {
    const c = exchange.testCase;
    const own = c.violates ?? c.exercises;
    const judgesOwn = judgements.some((j) => j.rule === own);
    return (judgesOwn || (c.open !== undefined && !is2xx(exchange))) && source.refusedWithTwin(exchange);
  }

  /** Steps 3 and 4, with the twin's verdict (undefined: unknown). */
  private decide(exchange: Exchange, judgements: Judgement[], twinAccepted: boolean | undefined): ExchangeVerdict {
    const c = exchange.testCase;
    const own = c.violates ?? c.exercises;
    const verdict: ExchangeVerdict = { judgements, openPointFindings: [] };
    if (twinAccepted === false && own !== undefined && judgements.some((j) => j.rule === own)) {
      verdict.judgements = judgements.filter((j) => j.rule !== own);
      verdict.twinRefused = own;
    }
    if (c.open) verdict.openPointFindings = this.learnOpenPoint(exchange, twinAccepted);
    return verdict;
  }

  /** An open case's acceptance, or its refusal as a limit when its guaranteed twin was accepted (merged metadata past 6 pairs is no limit of the value). */
  private learnOpenPoint(exchange: Exchange, twinAccepted: boolean | undefined): ExchangeVerdict['openPointFindings'] {
    const { openPoints, metadata } = this.state;
    let findings: { problems: Problem[]; exchange: Exchange }[] = [];
    if (is2xx(exchange)) findings = openPoints.accepted(exchange);
    else if (twinAccepted === true && !metadata.mergeMayExceedLimit(exchange)) findings = openPoints.refused(exchange);
    const rule = OPERATIONS[exchange.testCase.operation].validAcceptedRule;
    return findings.map((f) => ({ rule, problems: f.problems, exchange: f.exchange }));
  }
}

/**
 * Every check's judgement of an exchange and the identities created so far. An answer that is
 * another create's identity does not reflect its request: it fails id.distinct-identities alone
 * (one root, one rule).
 */
function checkJudgements(exchange: Exchange, context: CheckContext, created: CreatedIdentities): Judgement[] {
  const judgements = judge(exchange, context);
  const distinct = isAround(exchange.testCase) ? null : created.observe(exchange);
  if (!distinct) return judgements;
  judgements.push({ rule: 'id.distinct-identities', problems: distinct });
  return distinct.length ? judgements.filter((j) => !comparesWithRequest(j.rule)) : judgements;
}

/**
 * The update sequences judged again from recorded exchanges: each step against the model of what
 * its sequence stored (account-model.ts), as the scenario judges it live. A sequence starts again
 * at its step 1 and ends at its first contradiction; the rules it judged pass in it unless its last
 * answer contradicted them.
 */
import type { Exchange } from '../../../core/exchange.ts';
import type { Problem } from '../../check.ts';
import type { RejudgedOutcome, RejudgeState, ScenarioRejudge } from '../../scenarios.ts';
import { AccountModel, SEQUENCE_ACCOUNTS, type SequenceRule } from './account-model.ts';

interface SequenceUnderWay {
  model: AccountModel;
  judged: Set<SequenceRule>;
  problems: Map<SequenceRule, Problem[]>;
  over: boolean;
  /** The entry of its last step. */
  at: number;
}

export function sequenceRejudge(state: RejudgeState): ScenarioRejudge {
  let sequence: SequenceUnderWay | undefined;
  /** The rules the sequence under way judged, each passed unless its last answer contradicted it. */
  const close = (): RejudgedOutcome[] => {
    const closed = sequence;
    sequence = undefined;
    if (!closed) return [];
    return [...new Set([...closed.judged, ...closed.problems.keys()])].map((rule) => ({ rule, problems: closed.problems.get(rule) ?? [], at: closed.at }));
  };
  return {
    observe(exchange: Exchange, at: number) {
      const step = exchange.testCase.sequence;
      if (!step) return [];
      const closed = step.step === 1 ? close() : [];
      sequence ??= { model: new AccountModel(SEQUENCE_ACCOUNTS, () => state.metadataSemantics()), judged: new Set(), problems: new Map(), over: false, at };
      if (sequence.over) return closed;
      sequence.at = at;
      const judgement = sequence.model.observe(step.account - 1, exchange);
      for (const rule of judgement.judged) sequence.judged.add(rule);
      sequence.problems = judgement.problems;
      sequence.over = judgement.problems.size > 0;
      return closed;
    },
    finish: close,
  };
}

/**
 * Sequences of updates over two fiat accounts, planned by fast-check's model-based testing
 * (fc.commands, run with fc.asyncModelRun): what an update leaves behind as the next exchange with
 * the account shows it (account-model.ts). Each sequence opens with an update of every account
 * (names and a metadata value of its own) and ends with an empty update of every account (which
 * shows what each holds); between them, fast-check's commands. A contradiction is shrunk against
 * the live target to the shortest sequence that still shows it, within SEQUENCE_SHRINK_REQUESTS.
 */
import fc from 'fast-check';
import type { TestCase } from '../../../core/case.ts';
import type { RuleId } from '../../../core/catalogue.ts';
import type { Exchange } from '../../../core/exchange.ts';
import type { Problem } from '../../check.ts';
import type { Scenario, ScenarioContext, ScenarioOutcome, ScenarioPlanning } from '../../scenarios.ts';
import { sequenceRejudge } from './sequence-rejudge.ts';
import { AccountModel, SEQUENCE_ACCOUNTS, SEQUENCE_RULES, type SequenceRule } from './account-model.ts';
import { emptyUpdate, openingUpdate, runStep, SequenceFailure, updateCommands, type SequenceWorld } from './update-commands.ts';

/** Commands between the opening and the closing reads, at most. */
const MAX_COMMANDS = 6;
/** Requests shrinking a failing sequence may send (the size of one failure's shrink budget). */
export const SEQUENCE_SHRINK_REQUESTS = 50;
/** Sequences of a run that judge each rule, at least (the coverage minimum). */
const MINIMUM_SEQUENCES = 3;

/** Sequences per run: one for every ten random cases a rule gets, from 3 (quick) to 25 (deep). */
export const sequenceRuns = (runs: number): number => Math.min(25, Math.max(MINIMUM_SEQUENCES, Math.ceil(runs / 10)));

const accountsOf = (available: number): number => Math.min(SEQUENCE_ACCOUNTS, available);

/** Isolation between accounts needs two of them: with one, no target could show it. */
const ISOLATION_NEEDS = { rules: ['fa.sequence.isolation'] as RuleId[], accounts: 2, fix: 'give a second account id (--fiat-account-id twice)' };

/** The requests the sequences send to a faithful target: fast-check generates the same commands from the seed. */
export function sequenceRequests({ runs, seed, accounts }: ScenarioPlanning): number {
  const count = accountsOf(accounts);
  if (!count) return 0;
  let requests = 0;
  fc.check(
    fc.property(updateCommands(count, MAX_COMMANDS), (commands) => {
      requests += 2 * count + [...commands].length;
    }),
    { seed, numRuns: sequenceRuns(runs) },
  );
  return requests;
}

export const accountSequences: Scenario = {
  rule: 'fa.sequence.persisted',
  alsoJudges: ['fa.sequence.timestamps', 'fa.sequence.isolation'],
  rejudge: sequenceRejudge,
  feeds: [],
  judgesItsRule: true,
  minimums: Object.fromEntries(SEQUENCE_RULES.map((r) => [r, MINIMUM_SEQUENCES])),
  requests: sequenceRequests,
  fiatAccounts: SEQUENCE_ACCOUNTS,
  accountNeeds: ISOLATION_NEEDS,
  async run(context) {
    const count = accountsOf(context.fiatAccountIds.length);
    if (!count) return { outcomes: [], notJudged: 'no fiat account to update' };
    const run = new SequenceRun(context, count);
    const details = await fc.check(
      fc.asyncProperty(updateCommands(count, MAX_COMMANDS), (commands) => run.sequence(commands)),
      { seed: context.seed, numRuns: sequenceRuns(context.runs) },
    );
    // A target that died, an interruption (the engine's RunStop), a bug: fast-check reports the throw as a failure; only a contradiction is one.
    if (details.errorInstance && !(details.errorInstance instanceof SequenceFailure)) throw details.errorInstance;
    return {
      outcomes: run.outcomes(),
      ...(count < ISOLATION_NEEDS.accounts
        ? {
            notJudged: 'one fiat account only: isolation between accounts needs two',
            notJudgedRules: ISOLATION_NEEDS.rules,
            remedy: ISOLATION_NEEDS.fix,
            ruledOutBy: '--fiat-account-id',
          }
        : {}),
    };
  },
};

/** One scenario run: its sequences, what each judged, and the smallest failure. */
class SequenceRun {
  private readonly passes: ScenarioOutcome[] = [];
  private first?: SequenceFailure;
  private smallest?: { failure: SequenceFailure; problems: Map<SequenceRule, Problem[]> };
  private shrinkRequestsLeft: number;

  constructor(
    private readonly context: ScenarioContext,
    private readonly accounts: number,
  ) {
    this.shrinkRequestsLeft = Math.min(SEQUENCE_SHRINK_REQUESTS, context.shrinkRequests ?? SEQUENCE_SHRINK_REQUESTS);
  }

  async sequence(commands: Iterable<fc.AsyncCommand<object, SequenceWorld>>): Promise<void> {
    const judgedBy = new Map<SequenceRule, Exchange>();
    let problems = new Map<SequenceRule, Problem[]>();
    const world: SequenceWorld = {
      model: new AccountModel(this.accounts, () => this.context.metadataSemantics()),
      steps: [],
      send: (index, c) => this.send(index, c),
      judged: (exchange, judgement) => {
        for (const rule of judgement.judged) judgedBy.set(rule, exchange);
        problems = judgement.problems;
      },
    };
    try {
      for (let i = 0; i < this.accounts; i++) await runStep(world, i, openingUpdate(i));
      await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
      for (let i = 0; i < this.accounts; i++) await runStep(world, i, emptyUpdate());
    } catch (error) {
      if (error instanceof SequenceFailure) {
        this.first ??= error;
        if (!this.smallest || error.steps.length <= this.smallest.failure.steps.length) this.smallest = { failure: error, problems };
      }
      throw error;
    } finally {
      // The rules a sequence judged without a contradiction passed in it, even when another rule failed.
      for (const [rule, exchange] of judgedBy) if (!problems.has(rule)) this.passes.push({ rule, exchange, problems: [] });
    }
  }

  /** Sends one step; once a sequence failed (shrinking), only within the shrink budget: past it, fast-check skips the sequence. */
  private async send(index: number, c: TestCase): Promise<Exchange> {
    if (this.first && this.shrinkRequestsLeft-- <= 0) fc.pre(false);
    return this.context.exercise(this.context.fitMetadata({ ...c, fiatAccountId: this.context.fiatAccountIds[index] }));
  }

  outcomes(): ScenarioOutcome[] {
    if (!this.smallest || !this.first) return this.passes;
    const { failure, problems } = this.smallest;
    const told = describeSequence(failure.steps, this.first.steps);
    const failed: ScenarioOutcome[] = [...problems].map(([rule, list]) => ({
      rule: rule as RuleId,
      exchange: failure.exchange,
      problems: list.map((p) => ({ ...p, message: `${p.message}. ${told}` })),
    }));
    return [...this.passes, ...failed];
  }
}

/** The shortest failing sequence, and the one first found when shrinking made it shorter. */
export function describeSequence(smallest: readonly string[], first: readonly string[]): string {
  const list = (steps: readonly string[]) => steps.map((s, i) => `(${i + 1}) ${s}`).join('; ');
  const shrunk = first.length > smallest.length ? `, shrunk from ${first.length} steps: ${list(first)}` : '';
  return `Sequence of ${smallest.length} steps: ${list(smallest)}${shrunk}`;
}

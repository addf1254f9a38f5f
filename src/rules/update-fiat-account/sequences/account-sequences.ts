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
    const { notes, remedies } = run.shortfalls(sequenceRuns(context.runs));
    return {
      outcomes: run.outcomes(),
      notes,
      remedies,
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

/** The shortest sequence that showed one distinct problem (a rule, its kind, its field), and the first that showed it. */
interface ShrunkProblem {
  rule: SequenceRule;
  problem: Problem;
  failure: SequenceFailure;
  firstSteps: readonly string[];
}

/** What tells two problems of a sequence apart: shrinking keeps the shortest sequence of each. */
const problemKey = (rule: SequenceRule, p: Problem): string => `${rule} ${p.kind ?? ''} ${p.instancePath ?? ''}`;

/** One scenario run: its sequences, what each judged, and the shortest failure of each distinct problem. */
class SequenceRun {
  private readonly passes: ScenarioOutcome[] = [];
  private first?: SequenceFailure;
  private readonly shrunk = new Map<string, ShrunkProblem>();
  private shrinkRequestsLeft: number;
  /** Sequences run before the first contradiction ended them (shrinking's aside), and their steps that were refused. */
  private sequencesRun = 0;
  private readonly judgedBy = new Map<SequenceRule, number>();
  private steps = 0;
  private refusedSteps = 0;

  constructor(
    private readonly context: ScenarioContext,
    private readonly accounts: number,
  ) {
    this.shrinkRequestsLeft = Math.min(SEQUENCE_SHRINK_REQUESTS, context.shrinkRequests ?? SEQUENCE_SHRINK_REQUESTS);
  }

  async sequence(commands: Iterable<fc.AsyncCommand<object, SequenceWorld>>): Promise<void> {
    const judgedBy = new Map<SequenceRule, Exchange>();
    let problems = new Map<SequenceRule, Problem[]>();
    const counted = !this.first;
    if (counted) this.sequencesRun++;
    const world: SequenceWorld = {
      model: new AccountModel(this.accounts, () => this.context.metadataSemantics()),
      steps: [],
      send: (index, c) => this.send(index, c, counted),
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
      if (error instanceof SequenceFailure) this.keepFailure(error, problems);
      throw error;
    } finally {
      if (counted) for (const rule of new Set([...judgedBy.keys(), ...problems.keys()])) this.judgedBy.set(rule, (this.judgedBy.get(rule) ?? 0) + 1);
      // The rules a sequence judged without a contradiction passed in it, even when another rule failed.
      for (const [rule, exchange] of judgedBy) if (!problems.has(rule)) this.passes.push({ rule, exchange, problems: [] });
    }
  }

  /** Keeps, per distinct problem, the shortest sequence that showed it (a shrink that found another problem loses none). */
  private keepFailure(failure: SequenceFailure, problems: Map<SequenceRule, Problem[]>): void {
    this.first ??= failure;
    for (const [rule, list] of problems) {
      for (const problem of list) {
        const key = problemKey(rule, problem);
        const kept = this.shrunk.get(key);
        if (!kept) this.shrunk.set(key, { rule, problem, failure, firstSteps: failure.steps });
        else if (failure.steps.length <= kept.failure.steps.length) this.shrunk.set(key, { ...kept, problem, failure });
      }
    }
  }

  /** Sends one step; once a sequence failed (shrinking), only within the shrink budget: past it, fast-check skips the sequence. */
  private async send(index: number, c: TestCase, counted: boolean): Promise<Exchange> {
    if (this.first && this.shrinkRequestsLeft-- <= 0) fc.pre(false);
    const exchange = await this.context.exercise(this.context.fitMetadata({ ...c, fiatAccountId: this.context.fiatAccountIds[index] }));
    if (counted) {
      this.steps++;
      const status = exchange.response?.status;
      if (status === undefined || status < 200 || status >= 300) this.refusedSteps++;
    }
    return exchange;
  }

  outcomes(): ScenarioOutcome[] {
    const failed: ScenarioOutcome[] = [...this.shrunk.values()]
      .sort((a, b) => a.failure.steps.length - b.failure.steps.length)
      .map(({ rule, problem, failure, firstSteps }) => ({
        rule: rule as RuleId,
        exchange: failure.exchange,
        problems: [{ ...problem, message: `${problem.message}. ${describeSequence(failure.steps, firstSteps)}` }],
      }));
    return [...this.passes, ...failed];
  }

  /**
   * Why a rule was judged by fewer sequences than the minimum, in the sequences' own terms (never
   * the refusals of other updates of the run): how many ran, what ended them, what they showed.
   */
  shortfalls(planned: number): { notes: Partial<Record<RuleId, string>>; remedies: Partial<Record<RuleId, string>> } {
    const notes: Partial<Record<RuleId, string>> = {};
    const remedies: Partial<Record<RuleId, string>> = {};
    for (const rule of SEQUENCE_RULES) {
      const judged = this.judgedBy.get(rule) ?? 0;
      if (judged >= MINIMUM_SEQUENCES) continue;
      const stop = this.first;
      // Refused steps with nothing contradicted: the refusals of the operation are the cause, said once for every rule they starve.
      if (!stop && this.refusedSteps) continue;
      const ran = `${this.sequencesRun} of ${planned} sequences ran${stop ? ` (the first contradiction, ${stop.rule} in sequence ${this.sequencesRun}, ends them)` : ''}`;
      const refused = this.refusedSteps
        ? `; ${this.refusedSteps} of their ${this.steps} steps were refused`
        : `; none of their ${this.steps} steps was refused`;
      const silent = this.sequencesRun - judged;
      // A sequence a contradiction cut short may have ended before any answer could judge the rule.
      const shown = silent > 0 && !stop ? `; ${silent} showed nothing it judges (${NOTHING_SHOWN[rule]})` : '';
      notes[rule] = `${ran}${refused}${shown}`;
      // A contradiction ends the sequences whatever the profile: a larger one would stop as early.
      if (stop) remedies[rule] = `fix the ${stop.rule} contradiction: the sequences then run to their end`;
    }
    return { notes, remedies };
  }
}

/** What a sequence must see to judge a rule, said when none of its answers showed it. */
const NOTHING_SHOWN: Record<SequenceRule, string> = {
  'fa.sequence.persisted': 'no answer showed an owner name or metadata pair that an earlier update stored',
  'fa.sequence.timestamps': 'no answer showed created_at or updated_at after an earlier one, nor updated_at with a Date header',
  'fa.sequence.isolation': 'no answer showed a field that another account was also sent',
};

/** The shortest failing sequence, and the one first found when shrinking made it shorter. */
export function describeSequence(smallest: readonly string[], first: readonly string[]): string {
  const list = (steps: readonly string[]) => steps.map((s, i) => `(${i + 1}) ${s}`).join('; ');
  const shrunk = first.length > smallest.length ? `, shrunk from ${first.length} steps: ${list(first)}` : '';
  return `Sequence of ${smallest.length} steps: ${list(smallest)}${shrunk}`;
}

/**
 * The scenario of `fa.updated-at.moves` (judgement: updated-at-clock.ts): three updates of one
 * fiat account, each a first_name the answer before did not show. The second and third are
 * judged against the Date of the answer before them. Step 1 goes with the other scenarios; steps
 * 2 and 3 after the random cases (its later part), waiting first, when needed, until the
 * target's clock is past the updated_at step 1 showed by the tolerance and the Date's
 * granularity: the second answer's Date then proves it, and the third update's updated_at must be
 * later than that Date. Without the wait, a server whose updated_at never moves passes whenever
 * its accounts were made in the last second or two (a sandbox started fresh for CI). The random
 * cases in between take that time on most targets, so the wait is rarely more than a remainder.
 */
import type { TestCase } from '../../core/case.ts';
import type { RuleId } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { RejudgedOutcome, Scenario, ScenarioContext, ScenarioOutcome, ScenarioRejudge } from '../scenarios.ts';
import { CLOCK_TOLERANCE_MS, ClockWitness } from './updated-at-clock.ts';

const RULE: RuleId = 'fa.updated-at.moves';
/**
 * Distinct from each other: each update changes the first_name the answer before showed. Both
 * names go, as the samples send them (the vendor's own OpenAPI marks both required).
 */
const OWNERS = [
  { first_name: 'Katherine', last_name: 'Johnson' },
  { first_name: 'Dorothy', last_name: 'Vaughan' },
  { first_name: 'Mary', last_name: 'Jackson' },
] as const;
/** Every case of the scenario is labelled so: how recorded exchanges are told apart (its steps have no other mark). */
export const CLOCK_STEP_LABEL = 'updated_at against the Date, step';
/**
 * The longest wait: the tolerance and one Date second past an updated_at in the Date's own second,
 * and a little more. A target whose updated_at runs further ahead of its Date is not waited for.
 */
export const CLOCK_WAIT_AT_MOST_MS = CLOCK_TOLERANCE_MS + 2000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function clockStep(step: number): TestCase {
  const owner = OWNERS[step - 1];
  return {
    operation: 'updateFiatAccount',
    mode: 'valid',
    label: `${CLOCK_STEP_LABEL} ${step}: owner names ${owner.first_name} ${owner.last_name}`,
    body: { fiat_account_owner: { person_details: { ...owner } } },
  };
}

/** The step a case of the scenario is, or undefined for any other case. */
function stepOf({ operation, label }: Pick<TestCase, 'operation' | 'label'>): number | undefined {
  if (operation !== 'updateFiatAccount' || !label.startsWith(`${CLOCK_STEP_LABEL} `)) return undefined;
  const step = Number.parseInt(label.slice(CLOCK_STEP_LABEL.length + 1), 10);
  return Number.isInteger(step) ? step : undefined;
}

/** What step 1 leaves for steps 2 and 3, sent later in the run. */
interface ClockCarry {
  account: string;
  witness: ClockWitness;
  /** When step 2 may go (ms since the epoch, the harness's clock). */
  due: number;
}

export const updatedAtClock: Scenario = {
  rule: RULE,
  feeds: [],
  judgesItsRule: true,
  // The second and the third update; only the third's Date before is sure to be past a frozen stamp.
  minimums: { [RULE]: 2 },
  requests: ({ accounts }) => (accounts ? OWNERS.length : 0),
  fiatAccounts: 1,
  waitsAtMostMs: ({ accounts }) => (accounts ? CLOCK_WAIT_AT_MOST_MS : 0),
  rejudge: clockRejudge,
  // Step 1 now; steps 2 and 3 after the random cases, so the wait for the target's clock overlaps
  // them (on a remote target they take longer than the wait: nothing is waited).
  async run(context: ScenarioContext) {
    const [account] = context.fiatAccountIds;
    if (account === undefined) return { outcomes: [], notJudged: 'no fiat account to update' };
    const witness = new ClockWitness();
    const first = await context.exercise({ ...clockStep(1), fiatAccountId: account });
    witness.observe(first);
    if (first.response && first.response.headers.date === undefined)
      return {
        outcomes: [],
        notJudged: "the target's answers carry no Date header: nothing tells what its clock read",
        remedy: 'make the target send a Date header (RFC 9110 section 6.6.1: an origin server with a clock sends one on every 2xx and 4xx), then run again',
      };
    const now = context.now ?? Date.now;
    context.carried?.set(RULE, { account, witness, due: now() + Math.min(witness.waitBeforeNext(first.request.url), CLOCK_WAIT_AT_MOST_MS) });
    return { outcomes: [] };
  },
  later: {
    requests: ({ accounts }) => (accounts ? OWNERS.length - 1 : 0),
    async run(context, moment) {
      const carry = context.carried?.get(RULE) as ClockCarry | undefined;
      if (moment !== 'after-random-cases' || !carry) return [];
      context.carried?.delete(RULE);
      const wait = carry.due - (context.now ?? Date.now)();
      if (wait > 0) await (context.wait ?? realSleep)(wait);
      const outcomes: ScenarioOutcome[] = [];
      for (let step = 2; step <= OWNERS.length; step++) {
        const exchange = await context.exercise({ ...clockStep(step), fiatAccountId: carry.account });
        const { judged, problems } = carry.witness.observe(exchange);
        if (judged) outcomes.push({ rule: RULE, exchange, problems });
      }
      return outcomes;
    },
  },
};

/** The scenario judged again from recorded exchanges: its steps in their order, by the same witness. */
function clockRejudge(): ScenarioRejudge {
  let witness = new ClockWitness();
  return {
    observe(exchange: Exchange, at: number): RejudgedOutcome[] {
      const step = stepOf(exchange.testCase);
      if (step === undefined) return [];
      if (step === 1) witness = new ClockWitness();
      const { judged, problems } = witness.observe(exchange);
      return judged ? [{ rule: RULE, problems, at }] : [];
    },
    finish: () => [],
  };
}

/**
 * The scenario's one wait, for a replay that sends its recorded steps again (har-replay.ts): sent
 * back to back, the steps would judge a frozen updated_at against a Date still in its second.
 */
export class ClockPacing {
  private witness = new ClockWitness();
  /** When step 2 may go (ms since the epoch, the harness's clock). */
  private due = 0;

  /** How long to wait before sending `c`: only the scenario's step 2 waits. */
  waitBefore(c: Pick<TestCase, 'operation' | 'label'>, now = Date.now()): number {
    return stepOf(c) === 2 ? Math.max(0, this.due - now) : 0;
  }

  /** Learns from an answer: after step 1, when step 2 may go. */
  sent(e: Exchange, now = Date.now()): void {
    const step = stepOf(e.testCase);
    if (step === undefined) return;
    if (step === 1) this.witness = new ClockWitness();
    this.witness.observe(e);
    if (step === 1) this.due = now + Math.min(this.witness.waitBeforeNext(e.request.url), CLOCK_WAIT_AT_MOST_MS);
  }
}

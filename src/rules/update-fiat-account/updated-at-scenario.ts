/**
 * The scenario of `fa.updated-at.moves` (judgement: updated-at-clock.ts): three updates of one
 * fiat account, each a first_name the answer before did not show. The second and third are
 * judged against the Date of the answer before them. Between the first and the second the
 * scenario waits, when needed, until the target's clock is past the updated_at the first answer
 * showed by the tolerance and the Date's granularity: the second answer's Date then proves it,
 * and the third update's updated_at must be later than that Date. Without the wait, a server
 * whose updated_at never moves passes whenever its accounts were made in the last second or two
 * (a sandbox started fresh for CI): the Date before would not be past the frozen stamp.
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
  async run(context: ScenarioContext) {
    const [account] = context.fiatAccountIds;
    if (account === undefined) return { outcomes: [], notJudged: 'no fiat account to update' };
    const witness = new ClockWitness();
    const outcomes: ScenarioOutcome[] = [];
    let dated = false;
    let refused = false;
    for (let step = 1; step <= OWNERS.length; step++) {
      const exchange = await context.exercise({ ...clockStep(step), fiatAccountId: account });
      const { judged, problems } = witness.observe(exchange);
      if (judged) outcomes.push({ rule: RULE, exchange, problems });
      dated ||= exchange.response?.headers.date !== undefined;
      refused ||= !isAccepted(exchange);
      const wait = step === 1 ? witness.waitBeforeNext(exchange.request.url) : 0;
      if (wait > 0) await (context.wait ?? realSleep)(Math.min(wait, CLOCK_WAIT_AT_MOST_MS));
    }
    if (outcomes.length) return { outcomes };
    // Its valid updates refused: the refusals of the operation are the cause, said once for every rule they starve.
    if (refused) return { outcomes };
    if (dated) return { outcomes, notJudged: 'no update showed the first_name it changed with an RFC 3339 updated_at' };
    return {
      outcomes,
      notJudged: "the target's answers carry no Date header: nothing tells what its clock read",
      remedy: 'make the target send a Date header (RFC 9110 section 6.6.1: an origin server with a clock sends one on every 2xx and 4xx), then run again',
    };
  },
};

const isAccepted = ({ response }: Exchange): boolean => response !== undefined && response.status >= 200 && response.status < 300;

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

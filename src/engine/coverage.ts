/**
 * Coverage accounting (issue: "conformant is earned"): how many cases judged each rule, fixed and
 * random apart, on how many distinct inputs, against a minimum per profile; and when a rule stays
 * below it, one line that says why and what would fix it.
 */
import type { RuleDefinition, RuleId } from '../core/catalogue.ts';
import { SCENARIOS } from '../rules/scenarios.ts';
import type { Exchange, RecordedResponse } from '../core/exchange.ts';
import { bodyOf, reasonIn } from '../core/target-reason.ts';
import { isAround } from '../core/case.ts';
import { describeOperation, sentToUnknownAccount } from '../core/operations.ts';
import { oneLine } from '../core/text.ts';
import type { Coverage, RuledOutBy } from './events.ts';
import type { CaseFamily } from '../rules/cases/family.ts';
import { InputSet } from './input-ids.ts';

export interface Minimum {
  fixed: number;
  random: number;
}

/**
 * The minimum of judged cases for a rule: half of its own examples (at least one case), every
 * example when it has no random cases; for the random part, a share of the profile's random cases. Ratios, not counts, so a deeper
 * profile asks for more; they sit well below what a faithful target gives (measured in every
 * reading of the embedded server), so only a target that refuses or omits shows below them.
 */
export function minimumFor(rule: RuleDefinition, runs: number, family?: Pick<CaseFamily, 'examples' | 'arbitrary'>): Minimum {
  // A rule whose cases come from a scenario: the scenario's fixed number of rounds or requests, no random ones.
  const scenario = SCENARIOS.map((s) => s.minimums[rule.id as RuleId]).find((m) => m !== undefined);
  if (scenario !== undefined) return { fixed: scenario, random: 0 };
  // A family of examples only (malformed ids, malformed JSON, empty bodies) has no random part to
  // ask for, nor any to make up for an example left unjudged: each is its own request shape, so every one is asked.
  const examples = family?.examples.length ?? 0;
  if (family && !family.arbitrary) return { fixed: Math.max(1, examples), random: 0 };
  const randomShare = rule.coverage?.sometimes ? 0.1 : 0.25;
  return { fixed: Math.max(1, Math.ceil(examples / 2)), random: Math.ceil(runs * randomShare) };
}

/** The minimum of every selected rule, its family (if it has one) and scenario (if one judges it) read from the list. */
export function minimumsOf(selected: readonly RuleDefinition[], runs: number, families: readonly CaseFamily[]): Map<RuleId, Minimum> {
  const familyOf = (rule: RuleDefinition) => families.find((f) => f.rule === rule.id);
  return new Map(selected.map((rule) => [rule.id as RuleId, minimumFor(rule, runs, familyOf(rule))]));
}

/**
 * Under merged metadata the pairs sent stay, accounts fill up, and no update can delete a key:
 * rules whose random cases need fresh keys have their random minimum waived (the fixed examples
 * still count), or a faithful merging target could never be conformant.
 */
export function minimumUnder(rule: RuleDefinition, minimum: Minimum, merging: boolean): Minimum {
  return merging && rule.coverage?.needsFreshKeys ? { ...minimum, random: 0 } : minimum;
}

/**
 * Random cases of a family: a family of invalid cases sends a valid twin with nearly every case
 * (each is refused), so it runs half as many to keep a run's requests within its budget.
 */
export function randomRuns(family: CaseFamily, runs: number): number {
  const paired = family.examples.some((c) => c.mode === 'invalid' && c.control);
  return paired ? Math.ceil(runs / 2) : runs;
}

export { inputKey } from './input-ids.ts';

/** What the runner saw of one operation's cases that should have been accepted. */
export class Refusals {
  private readonly byOperation = new Map<string, { expected: number; refused: number; first?: Exchange }>();

  /** `accounts`: the fiat accounts of the run; an update sent elsewhere on purpose (an unknown id) expects a refusal. */
  constructor(private readonly accounts: readonly string[] = []) {}

  observe(e: Exchange): void {
    const c = e.testCase;
    // An open case may be refused (alone or combined): that is a limit of the target, not a shortfall's cause.
    if (c.auth || c.open || (c.combined && c.mode === 'valid') || isAround(c) || (c.mode !== 'valid' && c.mode !== 'boundary') || !e.response) return;
    // With no account known (a unit's own tally) no case can be told apart as one.
    if (this.accounts.length > 0 && sentToUnknownAccount(c, this.accounts)) return;
    const entry = this.byOperation.get(c.operation) ?? { expected: 0, refused: 0 };
    entry.expected += 1;
    if (e.response.status < 200 || e.response.status >= 300) {
      entry.refused += 1;
      entry.first ??= e;
    }
    this.byOperation.set(c.operation, entry);
  }

  /** "240 of 283 identity creates that should be accepted were refused; first: ..." or undefined. */
  describe(operation: string): string | undefined {
    const entry = this.byOperation.get(operation);
    if (!entry?.refused || !entry.first) return undefined;
    const { first } = entry;
    const body = first.response ? oneLine(refusalWords(first.response, first.testCase.body), REFUSAL_WORDS_WIDTH) : '';
    // A long label is cut, so the status and the target's words stay near the start of the line.
    const label = oneLine(first.testCase.label, CITED_LABEL_WIDTH);
    return `${entry.refused} of ${entry.expected} ${describeOperation(first.testCase.operation)} requests that should be accepted were refused; first: "${label}" got HTTP ${first.response?.status}${body ? `: "${body}"` : ''}`;
  }
}

/** The target's words on a refusal (core/target-reason.ts): its reason, not a canned text beside it. */
const REFUSAL_WORDS_WIDTH = 100;
const CITED_LABEL_WIDTH = 60;
const refusalWords = (response: RecordedResponse, request: unknown): string =>
  reasonIn({ body: bodyOf(response), headers: response.headers ?? {}, rawBody: response.rawBody ?? '' }, { fields: [], request }) ?? '';

/** Per rule, while the run goes: counts and the reasons cases did not judge it. */
export interface Tally {
  fixed: number;
  random: number;
  /** The inputs that judged the rule, as numbers of InputIds (input-ids.ts). */
  inputs: InputSet;
  /** Cases refused together with their valid twin: the refusal was not about the rule. */
  twinRefused: number;
  /** 2xx answers of the rule's operation that held nothing the rule judges. */
  silentSuccesses: number;
  /** Its requests that got no answer (dropped, timed out, cut short): their cases judged nothing. */
  unanswered?: number;
  /** A scenario's own word on why it judged nothing. */
  scenarioNote?: string;
  /** Cases the run did not send, none of the accounts having room for their metadata: how many, and why. */
  unsent?: { count: number; reason: string };
  /** --max-requests left the rule fewer cases than planned: how many (budget-fit.ts). */
  budgetNote?: string;
  /** The scenario's fix for that, a setting of the run: the only fix the shortfall line then gives. */
  scenarioRemedy?: string;
  /** The setting that keeps the rule from being judged whatever the target does (one account, a budget), and its fix. */
  ruledOutBy?: RuledOutBy;
}

export const emptyTally = (): Tally => ({ fixed: 0, random: 0, inputs: new InputSet(), twinRefused: 0, silentSuccesses: 0 });

/**
 * The coverage of a rule at the end of the run, with the shortfall line when below its minimum.
 * `stoppedEarly`: why the run ended before its end, which is then the cause of any shortfall.
 */
export function coverageOf(rule: RuleDefinition, tally: Tally, minimum: Minimum, refusals: Refusals, stoppedEarly?: string): Coverage {
  const coverage: Coverage = { fixed: tally.fixed, random: tally.random, distinctInputs: tally.inputs.size, minimum };
  if (tally.fixed >= minimum.fixed && tally.random >= minimum.random) return coverage;
  if (stoppedEarly) return { ...coverage, shortfall: `${judgedLine(tally, minimum)}: ${stoppedEarly}` };
  // Nothing the target does would help (one fiat account for isolation): advice on the target misleads.
  const ruledOutBy = tally.ruledOutBy ? { ruledOutBy: tally.ruledOutBy } : {};
  if (tally.scenarioNote && tally.scenarioRemedy)
    return { ...coverage, shortfall: `${judgedLine(tally, minimum)}: ${tally.scenarioNote}; ${tally.scenarioRemedy}`, ...ruledOutBy };
  const causes = [
    tally.budgetNote,
    tally.unsent ? `${tally.unsent.count} of its cases were ${tally.unsent.reason}` : undefined,
    tally.scenarioNote,
    // A scenario's own note says what its steps got: the refusals of the operation's other cases are not its cause.
    tally.scenarioNote === undefined ? refusals.describe(rule.operation) : undefined,
    tally.twinRefused ? `${tally.twinRefused}${TWIN_REFUSED}` : undefined,
    tally.silentSuccesses ? `${tally.silentSuccesses}${SILENT_SUCCESSES}` : undefined,
    tally.unanswered ? `${tally.unanswered}${UNANSWERED}` : undefined,
  ].filter((c): c is string => c !== undefined);
  const fix = tally.budgetNote
    ? (tally.ruledOutBy?.fix ?? 'raise --max-requests')
    : tally.unsent
      ? 'give --fiat-account-id accounts that hold fewer metadata keys, or remove keys from these, then run again'
      : tally.unanswered && causes.length === 1
        ? 'make the target answer every request in time, then run again'
        : causes.length
          ? 'make the target accept valid requests and return the documented fields, then run again'
          : NO_CAUSE_FIX;
  return { ...coverage, shortfall: `${judgedLine(tally, minimum)}${causes.length ? `: ${causes.join('; ')}` : ''}; ${fix}`, ...ruledOutBy };
}

const NO_CAUSE_FIX = 'run a larger --profile or more --runs';
const JUDGED_LINE = /^judged by \d+ fixed and \d+ random cases \(minimum \d+ and \d+\)/;
/** The causes of a shortfall that are the rule's own (after a count); the others come from the target and many rules share them. */
const TWIN_REFUSED = ' of its cases were refused together with their valid twin, so the refusal was not about this rule';
const SILENT_SUCCESSES = ' successful answers held none of the fields it judges';
const UNANSWERED = ' of its requests got no answer (dropped, timed out or cut short)';
const OWN_CAUSE = new RegExp(`(?:^|; )(\\d+(?:${TWIN_REFUSED}|${SILENT_SUCCESSES}|${UNANSWERED.replace(/[()]/g, '\\$&')}))(?=;|$)`, 'g');

/**
 * A shortfall line split for a report that lists many rules (report/model/reason-groups.ts): the
 * causes that are the rule's own (its figures aside, which every renderer shows anyway), and the
 * rest, which a target that refuses every valid request makes the same for fifteen rules.
 */
export function splitShortfall(line: string): { own: string[]; shared: string } {
  const causes = line.replace(JUDGED_LINE, '').replace(/^: /, '');
  const own = [...causes.matchAll(OWN_CAUSE)].map((m) => m[1]);
  const shared = causes.replace(OWN_CAUSE, '').replace(/^(?:; |: )/, '');
  return { own, shared: shared || line };
}

/** `judged by 3 fixed and 0 random cases (minimum 2 and 25)`: the start of every shortfall line. */
function judgedLine(counts: { fixed: number; random: number }, minimum: Minimum): string {
  return `judged by ${counts.fixed} fixed and ${counts.random} random cases (minimum ${minimum.fixed} and ${minimum.random})`;
}

/**
 * The shortfall of counts that add up several shards' (merge-reports.ts): below the minimum, the
 * line with these counts and the causes and fix one shard's line gave (`from`), or else the fix
 * of a rule with no cause known; undefined when the minimum is met.
 */
export function mergedShortfall(counts: { fixed: number; random: number }, minimum: Minimum, from: readonly string[]): string | undefined {
  if (counts.fixed >= minimum.fixed && counts.random >= minimum.random) return undefined;
  const tail = from.map((line) => (JUDGED_LINE.test(line) ? line.replace(JUDGED_LINE, '') : undefined)).find((t) => t !== undefined && t.length > 0);
  return `${judgedLine(counts, minimum)}${tail ?? `; ${NO_CAUSE_FIX}`}`;
}

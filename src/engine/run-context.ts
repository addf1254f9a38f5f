/**
 * The one context every phase of a run works on: the settings, the transport, and the owners of
 * the state the phases share, each with one job (the rule ledger, run control, the account pool,
 * the valid twins, the exchange judge and its observers).
 */
import fc from 'fast-check';
import type { RuleDefinition, RuleId } from '../core/catalogue.ts';
import type { TestCase } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import { notifyAll } from '../core/notify.ts';
import { CreatedIdentities } from '../rules/create-identity/created-identities.ts';
import { UndocumentedFields } from '../rules/undocumented-fields.ts';
import { registry } from '../schema/registry.ts';
import { AccountPool } from './account-pool.ts';
import { AnswerTally } from './answer-tally.ts';
import { UncountedCases } from './uncounted-cases.ts';
import { minimumsOf, randomRuns, Refusals } from './coverage.ts';
import type { RunEvent, RunListener } from './events.ts';
import { RuleJudge } from '../rules/rule-judge.ts';
import { ExchangeJudge, type JudgeOptions, type Judged } from './exchange-judge.ts';
import { caseFamilies, type CaseFamily } from '../rules/cases/families.ts';
import { InputIds } from './input-ids.ts';
import { fitToPutBack } from './restore/put-back-fit.ts';
import { MetadataState } from '../rules/update-fiat-account/metadata-state.ts';
import type { PlannedCase } from './planned-case.ts';
import { RefIds } from './ref-ids.ts';
import { RuleLedger } from './rule-ledger.ts';
import { RunControl } from './run-control.ts';
import type { RunSettings } from './run-settings.ts';
import type { Scenario } from '../rules/scenarios.ts';
import { ShrinkBudget } from './shrink-budget.ts';
import { budgetFix } from './ruled-out.ts';
import { TargetWatch } from './target-watch.ts';
import type { Transport } from './transport/transport.ts';
import { OpenPointBook } from '../rules/open-points/open-point-book.ts';
import { CombinationsJudged } from '../rules/open-points/combinations-judged.ts';
import { ValidTwins } from './valid-twins.ts';
import { IdentityLedger } from './identity-ledger.ts';
import { OperationAccess, confirmingCase } from './operation-access.ts';
import { AccountRestore } from './restore/account-restore.ts';

export interface RunContext {
  readonly settings: RunSettings;
  readonly transport: Transport;
  readonly selected: readonly RuleDefinition[];
  readonly selectedIds: ReadonlySet<string>;
  /** This run's share of the families and scenarios (all of them unless --shard). */
  readonly families: readonly CaseFamily[];
  readonly scenarios: readonly Scenario[];
  readonly control: RunControl;
  readonly ledger: RuleLedger;
  readonly uncounted: UncountedCases;
  readonly pool: AccountPool;
  readonly metadata: MetadataState;
  readonly refIds: RefIds;
  readonly created: CreatedIdentities;
  /** Every identity the run created, for the report's ledger. */
  readonly identities: IdentityLedger;
  /** Puts the pool accounts back at the run's end; undefined under --no-restore. */
  readonly restore: AccountRestore | undefined;
  readonly twins: ValidTwins;
  /** What the target accepts and refuses on the open points: its observed contract. */
  readonly openPoints: OpenPointBook;
  /** Which documented rules were judged with which accepted open values (rules/open-points/combinations.ts). */
  readonly combinations: CombinationsJudged;
  /** What each scenario keeps from its run for its later part (rules/scenarios.ts LaterPart). */
  readonly scenarioCarry: Map<string, unknown>;
  readonly judge: ExchangeJudge;
  readonly answers: AnswerTally;
  readonly undocumented: UndocumentedFields;
  readonly shrinkBudget: ShrinkBudget;
  /** Where each rule's first failure among random cases was: a shrink starts there. */
  readonly shrinkFrom: Map<RuleId, PlannedCase>;
  emit(event: RunEvent): Promise<void>;
  /** Sends a case (with the credentials its kind asks for), an update fitted to what the restore can put back (put-back-fit.ts). */
  send(c: TestCase): Promise<Exchange>;
  /** Sends a case once the run may go on, and judges it. */
  exercise(c: TestCase, options?: JudgeOptions): Promise<Judged>;
  /** A case ready to send: its account (when it needs one of the pool) and a fresh ref_id. */
  prepare(c: TestCase): TestCase;
  /** Random cases of a family under the run's profile. */
  runsOf(family: CaseFamily): number;
  /** Picks one of `items` from the run's seed (the same run repeats the same choice). */
  pick<T>(items: readonly T[]): T;
}

export function createRunContext(transport: Transport, settings: RunSettings, listeners: RunListener[]): RunContext {
  const emit = (event: RunEvent) => notifyAll(listeners, event);
  const refIds = new RefIds(settings.seed);
  const identities = new IdentityLedger(refIds.runTag);
  // Every answer the transport brings back, judged or not (one after an interrupt created what it created).
  transport.recordSent((sent) => {
    if ('testCase' in sent) identities.observe(sent);
  });
  const { selected, share, budget } = settings.plan;
  const { families, scenarios, foreignTwins } = share;
  const selectedIds = new Set<string>(selected.map((r) => r.id));
  const allFamilies = caseFamilies();
  // --fail-fast stops at a failure that makes the run non-conformant: a documented rule's, any rule's under --strict.
  const control = new RunControl(settings.signal, settings.failFast ? (rule) => rule.basis === 'documented' || settings.strict === true : undefined);
  const uncounted = new UncountedCases();
  const inputIds = new InputIds();
  const refusals = new Refusals(settings.fiatAccountIds);
  const metadata = new MetadataState();
  const pool = new AccountPool(settings.fiatAccountIds, metadata, allFamilies);
  const created = new CreatedIdentities();
  const answers = new AnswerTally();
  const undocumented = new UndocumentedFields(registry());
  const ledger = new RuleLedger({
    selected,
    minimums: minimumsOf(selected, settings.runs, allFamilies),
    uncounted,
    inputIds,
    refusals,
    ...(budget ? { budgetNotes: budget.notes, budgetRuledOut: budgetFix(budget.concludes) } : {}),
    merging: () => metadata.semantics === 'merge',
    stoppedEarly: () => control.stoppedEarly,
    onFailure: (rule) => control.noteFailure(rule),
    emit,
  });
  const restore = settings.noRestore ? undefined : accountRestore(transport, settings, metadata, emit);
  // Every update goes fitted to what the restore can put back: no value on a field the account showed empty (put-back-fit.ts).
  const send = (c: TestCase): Promise<Exchange> => {
    const sent = restore && c.fiatAccountId ? fitToPutBack(c, restore.startState(c.fiatAccountId)) : c;
    return transport.send(sent, sent.auth ? { auth: sent.auth } : undefined);
  };
  const openPoints = new OpenPointBook();
  const prepare = (c: TestCase): TestCase => refIds.stamp(pool.assign(openPoints.keepInside(c)));
  const twins = new ValidTwins({
    selectedIds,
    inputIds,
    send,
    prepare,
    ...(foreignTwins ? { foreignTwins } : {}),
    markUncounted: (c) => uncounted.add(c),
    refusalExplainedByMerge: (e) => metadata.semantics === 'merge' && metadata.mergeMayExceedLimit(e),
    withoutRoom: (twin) => (pool.roomless(twin) === undefined ? undefined : { excused: metadata.semantics === 'merge' }),
  });
  const watch = targetWatch(
    transport,
    () => pool.ids[0] ?? settings.fiatAccountIds[0],
    () => restore?.readsWithGet() ?? false,
  );
  // A 403 before any other answer of its operation is put to one more request (operation-access.ts).
  const access = new OperationAccess((operation) => send(prepare(confirmingCase(operation, pool.ids[0] ?? settings.fiatAccountIds[0]))));
  const judge = new ExchangeJudge({
    selected,
    ledger,
    rules: new RuleJudge({ metadata, created, openPoints }),
    fiatAccountIds: settings.fiatAccountIds,
    twins,
    arrival: answers,
    observers: [refusals, metadata, undocumented, watch],
    admit: (exchange) => access.check(exchange),
    checkGoOn: () => control.checkGoOn(),
    emit,
  });
  return {
    settings,
    transport,
    selected,
    selectedIds,
    families,
    scenarios,
    control,
    ledger,
    uncounted,
    pool,
    metadata,
    refIds,
    created,
    identities,
    restore,
    twins,
    openPoints,
    combinations: new CombinationsJudged(),
    scenarioCarry: new Map(),
    judge,
    answers,
    undocumented,
    shrinkBudget: new ShrinkBudget(),
    shrinkFrom: new Map(),
    emit,
    send,
    async exercise(c, options) {
      control.checkGoOn();
      return judge.judge(await send(c), options);
    },
    prepare,
    // Under --max-requests, the random cases per rule that fitted (the minimums stay the profile's).
    runsOf: (family) => randomRuns(family, budget?.runs ?? settings.runs),
    pick: (items) => fc.sample(fc.constantFrom(...items), { seed: settings.seed, numRuns: 1 })[0],
  };
}

function accountRestore(transport: Transport, settings: RunSettings, metadata: MetadataState, emit: (event: RunEvent) => Promise<void>): AccountRestore {
  const restore = new AccountRestore({
    ids: settings.fiatAccountIds,
    ...(settings.baseUrl ? { target: settings.baseUrl } : {}),
    ...(settings.journalFile ? { journalFile: settings.journalFile } : {}),
    ...(settings.readWithEmptyUpdate ? { emptyUpdateReads: true } : {}),
    ...(settings.restorePatienceMs !== undefined ? { patienceMs: settings.restorePatienceMs } : {}),
    send: (c) => transport.sendCleanup(c),
    secrets: () => transport.secrets(),
    record: (exchange) => emit({ type: 'exchange', exchange }),
    semantics: () => metadata.semantics,
    interrupted: () => settings.signal?.aborted === true,
  });
  // The run's accepted updates: a change after the last one is not the run's.
  transport.recordSent((sent) => {
    if ('testCase' in sent) restore.observe(sent);
  });
  return restore;
}

/**
 * Notices a target that stopped answering: then asks a request that worked at the start, a read of
 * the first account (a GET where the target has it: an empty update writes where PUT replaces).
 */
function targetWatch(transport: Transport, account: () => string, readsWithGet: () => boolean): TargetWatch {
  return new TargetWatch(() =>
    transport.send({
      operation: 'updateFiatAccount',
      mode: 'valid',
      label: 'probe: is the target still answering?',
      fiatAccountId: account(),
      ...(readsWithGet() ? { method: 'GET' } : { body: {} }),
    }),
  );
}

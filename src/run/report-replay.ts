/**
 * A report's failing cases sent again (`conformance replay conformance.json`), the report's side of
 * the one judge (rules/rule-judge.ts): each recorded failure is rebuilt and sent to an account the
 * replay may write (rules/update-fiat-account/replay-placement.ts), and judged as the run judged it;
 * a rule its scenario judges is judged by running the scenario again.
 */
import { randomUUID } from 'node:crypto';
import { UsageError } from '../core/errors.ts';
import type { RuleId } from '../core/catalogue.ts';
import type { TestCase, UnauthenticatedKind } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import { OPERATIONS } from '../core/operations.ts';
import type { ReportFailure, ReportRule } from '../report/model/model.ts';
import { recordedCase } from '../report/model/recorded-case.ts';
import type { Problem } from '../rules/check.ts';
import { describeStatus } from '../rules/checks/exchange-facts.ts';
import { CreatedIdentities } from '../rules/create-identity/created-identities.ts';
import { freshJudgeState, RuleJudge } from '../rules/rule-judge.ts';
import { SCENARIOS, scenarioRules } from '../rules/scenarios.ts';
import { replayPlacement } from '../rules/update-fiat-account/replay-placement.ts';
import { ReplayRestore } from './replay-restore.ts';
import { RefIds } from '../engine/ref-ids.ts';
import { concurrentDuplicates } from '../engine/plan.ts';
import { journalInFreshFolder } from '../engine/restore/restore-journal.ts';
import { MetadataState } from '../rules/update-fiat-account/metadata-state.ts';
import type { TokenRenewal } from '../core/token-renewal.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import type { PreparedRun } from './prepare-run.ts';

/**
 * The replayer of a report's failures on a prepared target, and the restore that keeps it a guest
 * (a live target's accounts journaled to a fresh folder).
 */
export async function reportReplayer(
  report: ConformanceReport,
  prepared: PreparedRun,
  signal: AbortSignal | undefined,
): Promise<{ replayer: Replayer; restore: ReplayRestore }> {
  const { transport, target } = prepared;
  const metadata = new MetadataState();
  const journal = { target: target.baseUrl, ...(target.embedded ? {} : { file: await journalInFreshFolder('conformance-replay-') }) };
  const restore = new ReplayRestore(target.fiatAccountIds, transport, () => metadata.semantics, signal, journal);
  const replayer = new Replayer(
    transport.send.bind(transport),
    new RefIds(report.seed),
    target.fiatAccountIds,
    concurrentDuplicates(prepared.config.concurrency),
    { seed: report.seed, runs: report.runs ?? prepared.settings.runs },
    { metadata, restore, live: !target.embedded, ...(transport.renewToken ? { renewToken: () => transport.renewToken!() } : {}) },
  );
  return { replayer, restore };
}

/** What keeps a replay a guest: the metadata it learns (for the restore), the restore, and whether the target is live. */
export interface Guest {
  metadata: MetadataState;
  restore: ReplayRestore;
  live: boolean;
  /** A new token for a scenario that repeats across tokens; absent with a static token. */
  renewToken?: () => Promise<TokenRenewal>;
}

/** A case the replay does not send, and why. */
class NotSent {
  constructor(readonly why: string) {}
}

export class Replayer {
  private accountCursor = 0;
  /** Recorded unknown ids and the fresh ones that stand for them. */
  private readonly freshIds = new Map<string, string>();

  /** @param accountIds the target's fiat accounts: the ones the user named, or the embedded server's. */
  constructor(
    private readonly send: (c: TestCase, o?: { auth?: UnauthenticatedKind }) => Promise<Exchange>,
    private readonly refIds: RefIds,
    private readonly accountIds: string[],
    private readonly concurrentDuplicates: number,
    private readonly settings: { seed: number; runs: number },
    private readonly guest: Guest,
  ) {}

  /** The accounts the replay may write: those whose start read gave the account. */
  private writable(): string[] {
    return this.accountIds.filter((id) => this.guest.restore.mayWrite(id));
  }

  /** Sends a case, noting the account it may change and what its answer shows of metadata. */
  private async guestSend(recorded: TestCase): Promise<Exchange> {
    const c = this.guest.restore.fit(recorded);
    if (c.fiatAccountId && this.accountIds.includes(c.fiatAccountId)) this.guest.restore.wrote(c.fiatAccountId);
    const exchange = await this.send(c, c.auth ? { auth: c.auth } : undefined);
    this.guest.restore.sent(exchange);
    this.guest.metadata.observe(exchange);
    return exchange;
  }

  /**
   * The problems a rule still has: its scenario again, or each recorded failing request again.
   * `judged` is false when no answer said anything about the rule.
   */
  async replayRule(rule: ReportRule): Promise<{ problems: Problem[]; judged: boolean; why?: string }> {
    const scenario = SCENARIOS.find((s) => scenarioRules(s).includes(rule.id as RuleId) && s.judgesItsRule);
    if (scenario) {
      const created = new CreatedIdentities();
      const sent = async (exchange: Promise<Exchange>) => {
        const e = await exchange;
        created.observe(e);
        return e;
      };
      const { outcomes, notJudged } = await scenario.run({
        exercise: (c) => sent(this.guestSend(c)),
        sendTogether: (cases) => Promise.all(cases.map((c) => sent(this.guestSend(c)))),
        freshRefId: () => this.refIds.next(),
        stamp: (c, refId) => this.refIds.stamp(c, refId),
        concurrentDuplicates: this.concurrentDuplicates,
        fiatAccountIds: this.writable(),
        created,
        pick: (items) => items[0],
        seed: this.settings.seed,
        runs: this.settings.runs,
        metadataSemantics: () => this.guest.metadata.semantics,
        fitMetadata: (c) => c,
        ...(this.guest.renewToken ? { renewToken: this.guest.renewToken } : {}),
      });
      const problems = outcomes.filter((o) => (o.rule ?? scenario.rule) === rule.id).flatMap((o) => o.problems);
      return outcomes.length ? { problems, judged: true } : { problems, judged: false, why: notJudged ?? 'no create of the scenario was accepted' };
    }
    const problems: Problem[] = [];
    let judged = false;
    let why = 'no recorded failure could be sent again';
    for (const failure of rule.failures) {
      const replayed = await this.replayFailure(rule.id as RuleId, failure);
      if (replayed instanceof NotSent) why = replayed.why;
      else if (replayed.problems) {
        judged = true;
        problems.push(...replayed.problems);
      } else why = `the target answered ${describeStatus(replayed.exchange)}`;
    }
    return { problems, judged, ...(judged ? {} : { why }) };
  }

  /** The rule's problems with the answer, or null when the answer says nothing about the rule; NotSent when a guest does not send it. */
  private async replayFailure(ruleId: RuleId, failure: ReportFailure): Promise<{ problems: Problem[] | null; exchange: Exchange } | NotSent> {
    const recorded = toTestCase(failure);
    if (this.guest.live && recorded.method !== undefined && recorded.method !== OPERATIONS[recorded.operation].method)
      return new NotSent(`${recorded.method} is not a documented operation: a live target gets only PUT on a fiat account and POST of an identity`);
    const placement = replayPlacement(recorded, ruleId);
    const placed = this.onAccount(recorded, placement);
    if (placed instanceof NotSent) return placed;
    const testCase = this.refIds.stamp(placed);
    const exchange = await this.guestSend(testCase);
    // The id was in the target's pool unless the failure was about an unknown id. Each failure
    // alone, as recorded: no twin is sent, no identity of another failure compared.
    const fiatAccountIds = testCase.fiatAccountId && placement !== 'unknown-account' ? [testCase.fiatAccountId] : [];
    const judge = new RuleJudge({ ...freshJudgeState(), metadata: this.guest.metadata });
    const { judgements } = judge.judgeRecorded(exchange, { fiatAccountIds, refusedWithTwin: () => false, twinAccepted: () => undefined });
    return { problems: judgements.find((j) => j.rule === ruleId)?.problems ?? null, exchange };
  }

  /**
   * The case on an account of the target (as replay-accounts.ts does for a HAR): an update goes
   * to the next account the replay may write; an unknown-id probe to a fresh random id, which no
   * account has; a malformed id (no account id) as recorded.
   */
  private onAccount(testCase: TestCase, placement: ReturnType<typeof replayPlacement>): TestCase | NotSent {
    if (placement === 'as-recorded') return testCase;
    if (placement === 'unknown-account') {
      const recorded = testCase.fiatAccountId ?? '';
      const fresh = this.freshIds.get(recorded) ?? randomUUID();
      this.freshIds.set(recorded, fresh);
      return { ...testCase, fiatAccountId: fresh };
    }
    const writable = this.writable();
    if (!writable.length) {
      return new NotSent(
        this.accountIds.length
          ? 'no fiat account of the target could be read first, so none is written'
          : 'no fiat account of the target named (replay writes only accounts you name)',
      );
    }
    return { ...testCase, fiatAccountId: writable[this.accountCursor++ % writable.length] };
  }
}

/** Rebuilds the case a failure came from: the same body, intent and account id (readReport checked it can). */
function toTestCase(failure: ReportFailure): TestCase {
  const rebuilt = recordedCase(failure);
  if ('problem' in rebuilt) throw new UsageError(`a failure of the report cannot be sent again: ${rebuilt.problem}`);
  return rebuilt;
}

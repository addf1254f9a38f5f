/**
 * `conformance replay <conformance.json>`: re-sends the failing cases of a report, against the
 * same target or another one, and says for each whether it still fails. For checking a fix
 * without a full run. Exit 1 when any still fails; 4 (inconclusive) when none fails but an
 * answer judged nothing (a pass it is not); 0 when all pass now. Reads any 1.x report: the
 * inconclusive rules of a 1.3.0 report have no failing case to re-send (a full run judges them),
 * and a report whose run stopped early is replayed for the failures it recorded.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { EXIT, UsageError, exitCodeOfError } from '../core/errors.ts';
import { checkUrl, optionPicker, resolveAuth, runConfig } from '../run/run-config.ts';
import { prepareRun } from '../run/prepare-run.ts';
import { MAX_TIMER_MS, wholeNumberFlag } from '../run/whole-number-flag.ts';
import type { ConformanceReport, ReportFailure, ReportRule } from '../report/model/model.ts';
import { readReport } from '../report/model/read-report.ts';
import { recordedCase } from '../report/model/recorded-case.ts';
import { isRuleId, type RuleId } from '../core/catalogue.ts';
import { judge } from '../rules/judge.ts';
import { MetadataState } from '../engine/metadata-state.ts';
import { RefIds } from '../engine/ref-ids.ts';
import { SCENARIOS, scenarioRules } from '../engine/scenarios.ts';
import type { TestCase, UnauthenticatedKind } from '../core/case.ts';
import { CreatedIdentities } from '../rules/created-identities.ts';
import { usesFiatAccount } from '../core/operations.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import { describeStatus } from '../rules/checks/exchange-facts.ts';
import { Redactor } from '../report/model/redact.ts';

const FLAGS = ['base-url', 'token', 'auth-url', 'client-id', 'client-secret', 'scope', 'timeout'] as const;

const HELP = `usage: conformance replay <conformance.json> [--base-url URL] [--token T | --auth-url URL --client-id ID --client-secret S [--scope S]]
                          [--fiat-account-id UUID]... [--timeout MS]
       conformance replay <exchanges.har> [--fault NAME] [--reading key=value]... [--report conformance.json]
                          [--base-url URL [auth flags] --fiat-account-id UUID...]

Re-sends the failing cases of a report and says for each whether it still fails.
Without --base-url the report's own target is used; against another target, give its fiat
account ids with --fiat-account-id (or CONFORMANCE_FIAT_ACCOUNT_IDS). Credentials come from the flags or .env,
as for \`conformance run\`. Exit 1 when any case still fails; 4 when none fails but an answer
judged nothing (e.g. a 404 for an account of another target: no pass); 0 when all pass now.
A report with no failing rule exits 0, or 4 when it has blocking inconclusive rules (those need
a full \`conformance run\`; replay has no failing case of theirs to send).

Given exchanges.har (a run's, or one from an evidence bundle, redacted or not), every request is
sent again in order, to a fresh embedded server (the report's fault, or --fault and --reading;
its fiat accounts stand for the run's) or to --base-url, and judged by the rules as the run judged
it. It prints each rule's status and the rules a HAR cannot judge again (those its scenarios
judge across answers); with the conformance.json beside the HAR (or --report), where the statuses
differ. Exit 0 when they agree (without a report: nothing failed), 1 when not.`;

export async function replay(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(
    'replay',
    argv,
    {
      ...(Object.fromEntries(FLAGS.map((f) => [f, { type: 'string' }])) as Record<(typeof FLAGS)[number], { type: 'string' }>),
      'fiat-account-id': { type: 'string', multiple: true },
      fault: { type: 'string' },
      reading: { type: 'string', multiple: true },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (parsed.values.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError('give one report file: conformance replay reports/conformance.json (or reports/exchanges.har)');
  // A HAR is replayed whole, entry by entry (replay-har.ts); a report, for its failures.
  if (parsed.positionals[0].endsWith('.har')) return (await import('./replay-har.ts')).replayHarFile(parsed.positionals[0], parsed.values, io);
  if (parsed.values.fault || parsed.values.reading || parsed.values.report)
    throw new UsageError('--fault, --reading and --report apply to replaying a HAR file (exchanges.har)');
  const { values } = parsed;
  const pick = optionPicker({
    baseUrl: values['base-url'],
    token: values.token,
    clientCredentials: { tokenUrl: values['auth-url'], clientId: values['client-id'], clientSecret: values['client-secret'], scope: values.scope },
    timeoutMs: values.timeout,
    env: io.env,
  });
  const timeout = wholeNumberFlag('--timeout', pick('timeout'), { min: 1, max: MAX_TIMER_MS }) ?? 10_000;
  const report = await readReport(parsed.positionals[0]);
  const baseUrl = (pick('base-url') ?? report.target.baseUrl).replace(/\/+$/, '');
  checkUrl('--base-url', baseUrl);
  const auth = resolveAuth(pick);
  if (auth.kind === 'none') throw new UsageError('replay needs credentials: --token T, or --auth-url URL --client-id ID --client-secret S');

  const flagIds = parsed.values['fiat-account-id'] ?? [];
  const accountIds = (flagIds.length ? flagIds : (io.env.CONFORMANCE_FIAT_ACCOUNT_IDS ?? '').split(','))
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const prepared = await prepareRun(runConfig({ seed: report.seed, baseUrl, auth, timeoutMs: timeout, fiatAccountIds: accountIds }));
  try {
    await prepared.connect();
  } catch (error) {
    const exitCode = exitCodeOfError(error);
    if (exitCode === undefined) throw error;
    io.err(`conformance replay: ${(error as Error).message}`);
    return exitCode;
  }
  const { transport } = prepared;

  const failing = report.rules.filter((r) => r.status === 'failed' && isRuleId(r.id));
  // A target may echo a credential in a body that a message quotes: scrub every line.
  const out = (line: string) => io.out(new Redactor(prepared.secrets()).text(line));
  for (const line of reportNotes(report)) out(line);
  if (!failing.length) {
    const unsure = report.rules.filter((r) => r.status === 'inconclusive' && r.blocking);
    if (unsure.length) {
      io.out(`the report has no failing rule: nothing to replay; ${unsure.length} inconclusive rule(s) need a full \`conformance run\``);
      return EXIT.inconclusive;
    }
    io.out('the report has no failing rule: nothing to replay');
    return EXIT.conformant;
  }
  const refIds = new RefIds(report.seed);
  const replayer = new Replayer(transport.send.bind(transport), refIds, accountIds, prepared.settings.concurrentDuplicates, {
    seed: report.seed,
    runs: report.runs ?? prepared.settings.runs,
  });
  let stillFailing = 0;
  let notJudged = 0;
  out(`replaying ${failing.length} failing rule(s) against ${baseUrl}`);
  for (const rule of failing) {
    const outcome = await replayer.replayRule(rule);
    if (outcome.problems.length) {
      stillFailing++;
      out(`  ✗ ${rule.id}  still fails: ${outcome.problems[0].message}`);
    } else if (!outcome.judged) {
      // An answer that says nothing about the rule (a 404 for an account of another target) is no
      // fix, and no failure either: inconclusive.
      notJudged++;
      out(`  ? ${rule.id}  not judged: ${outcome.why}${accountIds.length ? '' : '; against another target give its --fiat-account-id'}`);
    } else out(`  ✓ ${rule.id}  passes now`);
  }
  io.out(replayClosingLine(failing.length - stillFailing - notJudged, stillFailing, notJudged));
  return replayExitCode(stillFailing, notJudged);
}

/** `N passed, N failed`, then `, N inconclusive` when an answer judged nothing: the run's own closing line. */
export function replayClosingLine(passed: number, failed: number, inconclusive: number): string {
  return `${passed} passed, ${failed} failed${inconclusive ? `, ${inconclusive} inconclusive` : ''}`;
}

/** 1 when a case still fails; 4 when none does but an answer judged nothing (no pass); 0 otherwise. */
export function replayExitCode(stillFailing: number, notJudged: number): number {
  if (stillFailing) return EXIT.nonConformant;
  return notJudged ? EXIT.inconclusive : EXIT.conformant;
}

/** What the report itself says that limits a replay: a run that stopped early, rules left inconclusive. */
function reportNotes(report: ConformanceReport): string[] {
  const notes: string[] = [];
  if (report.stopped) {
    notes.push(
      `note: the report's run stopped after ${report.stopped.requests} requests (${report.stopped.message.split('\n')[0]}); only the failures it recorded are replayed`,
    );
  }
  const inconclusive = report.rules.filter((r) => r.status === 'inconclusive').length;
  if (inconclusive) notes.push(`note: ${inconclusive} rule(s) of the report were inconclusive; replay cannot judge them (no failing case recorded)`);
  return notes;
}

class Replayer {
  private readonly metadata = new MetadataState();

  private accountCursor = 0;

  /** @param accountIds the other target's fiat accounts; empty: the ids the report recorded. */
  constructor(
    private readonly send: (c: TestCase, o?: { auth?: UnauthenticatedKind }) => Promise<Exchange>,
    private readonly refIds: RefIds,
    private readonly accountIds: string[],
    private readonly concurrentDuplicates: number,
    private readonly settings: { seed: number; runs: number },
  ) {}

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
        exercise: (c) => sent(this.send(c)),
        sendTogether: (cases) => Promise.all(cases.map((c) => sent(this.send(c)))),
        freshRefId: () => this.refIds.next(),
        stamp: (c, refId) => this.refIds.stamp(c, refId),
        concurrentDuplicates: this.concurrentDuplicates,
        fiatAccountIds: this.accountIds.length ? this.accountIds : recordedAccounts(rule),
        created,
        pick: (items) => items[0],
        seed: this.settings.seed,
        runs: this.settings.runs,
        metadataSemantics: () => this.metadata.semantics,
        fitMetadata: (c) => c,
      });
      const problems = outcomes.filter((o) => (o.rule ?? scenario.rule) === rule.id).flatMap((o) => o.problems);
      return outcomes.length ? { problems, judged: true } : { problems, judged: false, why: notJudged ?? 'no create of the scenario was accepted' };
    }
    const problems: Problem[] = [];
    let judged = false;
    let why = 'no recorded failure could be sent again';
    for (const failure of rule.failures) {
      const { problems: found, exchange } = await this.replayFailure(rule.id as RuleId, failure);
      if (found) {
        judged = true;
        problems.push(...found);
      } else why = `the target answered ${describeStatus(exchange)}`;
    }
    return { problems, judged, ...(judged ? {} : { why }) };
  }

  /** The rule's problems with the answer, or null when the answer says nothing about the rule. */
  private async replayFailure(ruleId: RuleId, failure: ReportFailure): Promise<{ problems: Problem[] | null; exchange: Exchange }> {
    const testCase = this.refIds.stamp(this.onAccount(toTestCase(failure), ruleId));
    const exchange = await this.send(testCase, testCase.auth ? { auth: testCase.auth } : undefined);
    // The id was in the target's pool unless the failure was about an unknown id.
    const fiatAccountIds = testCase.fiatAccountId && ruleId !== 'fa.unknown-id-404' ? [testCase.fiatAccountId] : [];
    const judgement = judge(exchange, { fiatAccountIds, mergeMayExceedLimit: (e) => this.metadata.mergeMayExceedLimit(e) });
    this.metadata.observe(exchange);
    return { problems: judgement.find((j) => j.rule === ruleId)?.problems ?? null, exchange };
  }

  /** Another target has accounts of its own: updates go to those, except the id probes. */
  private onAccount(testCase: TestCase, ruleId: RuleId): TestCase {
    const probesId = ruleId === 'fa.unknown-id-404' || testCase.violates === 'fa.malformed-id-4xx';
    if (!usesFiatAccount(testCase.operation) || probesId || !this.accountIds.length) return testCase;
    return { ...testCase, fiatAccountId: this.accountIds[this.accountCursor++ % this.accountIds.length] };
  }
}

/** The fiat accounts a rule's recorded failures updated (a sequence's accounts). */
function recordedAccounts(rule: ReportRule): string[] {
  return [...new Set(rule.failures.map((f) => toTestCase(f).fiatAccountId).filter((id): id is string => id !== undefined))];
}

/** Rebuilds the case a failure came from: the same body, intent and account id (readReport checked it can). */
function toTestCase(failure: ReportFailure): TestCase {
  const rebuilt = recordedCase(failure);
  if ('problem' in rebuilt) throw new UsageError(`a failure of the report cannot be sent again: ${rebuilt.problem}`);
  return rebuilt;
}

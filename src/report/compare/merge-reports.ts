/**
 * `conformance merge`: the reports of the n shards of one run (`run --shard i/n`) joined into the
 * report of the whole run. Pure: the CLI (src/cli/merge.ts) reads the files and writes the result.
 *
 * The shards must be of one run (same seed, profile and runs, rules, target, tool, schemas,
 * --strict and shard count) and all there, each once; anything else is refused in one line. A rule
 * judged in several shards adds up their cases and coverage and keeps their failures (within the
 * per-rule cap of a run); its status is decided again as the report builder decides it, from the
 * summed coverage. The summary, the transport, the undocumented fields, shrinking and the open
 * cases are summed; the observed contracts are joined per open point (mergeContracts); a stop of
 * any shard is kept; the run started with the earliest shard and took the longest one's time.
 */
import { RESTORE_OFF, restoreNote, type RestoreSummary } from '../../engine/restore/restore-summary.ts';
import type { LedgerEntry } from '../../engine/identity-ledger.ts';
import { UsageError } from '../../core/errors.ts';
import type { RuleDefinition, RuleId } from '../../core/catalogue.ts';
import { mergedShortfall } from '../../engine/coverage.ts';
import { MAX_FAILURES_PER_RULE } from '../../engine/rule-ledger.ts';
import { shardName } from '../../engine/shard.ts';
import type { Stop } from '../../engine/events.ts';
import { buildReport, ruleStatus, type RunFacts } from '../model/report-builder.ts';
import type { ConformanceReport, ReportRule, RuleCoverage } from '../model/model.ts';
import { mergeContracts } from '../../core/observed-contract.ts';
import { contractOf } from '../model/report-contract.ts';

/** One input: the report and the name it is known by in messages (its file). */
export interface ShardInput {
  name: string;
  report: ConformanceReport;
}

/** What must be equal in every shard of one run, each with the way a message shows it. */
const SAME_RUN: { what: string; of: (r: ConformanceReport) => unknown }[] = [
  { what: 'shard count', of: (r) => r.shard?.count },
  { what: 'seed', of: (r) => r.seed },
  { what: 'profile', of: (r) => r.profile },
  { what: 'random cases per rule (runs)', of: (r) => r.runs },
  { what: '--rule filter', of: (r) => (r.ruleFilter ?? []).join(',') || '(none)' },
  { what: '--strict', of: (r) => r.strict },
  // The embedded server listens on a port of its own in each shard: its reading and fault tell runs apart.
  { what: 'target', of: (r) => (r.target.embedded ? `the embedded server ${JSON.stringify(r.target.reading ?? {})}` : r.target.baseUrl) },
  { what: 'tool version', of: (r) => `${r.tool.name} ${r.tool.version}` },
  { what: 'schemasHash', of: (r) => r.schemasHash },
];

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Throws the one-line UsageError unless the inputs are every shard of one run, each once. */
export function checkShards(inputs: readonly ShardInput[]): void {
  if (!inputs.length) throw new UsageError('give the conformance.json of every shard: conformance merge shard-1/conformance.json shard-2/conformance.json ...');
  for (const { name, report } of inputs) {
    if (!report.shard) throw new UsageError(`${name} is not the report of a shard (it has no "shard"): merge the reports of \`conformance run --shard i/n\``);
  }
  const [first] = inputs;
  for (const { what, of } of SAME_RUN) {
    const other = inputs.find((i) => shown(of(i.report)) !== shown(of(first.report)));
    if (other)
      throw new UsageError(
        `${first.name} and ${other.name} differ in ${what} (${shown(of(first.report))} vs ${shown(of(other.report))}): merge only the shards of one run`,
      );
  }
  const count = first.report.shard!.count;
  const byIndex = new Map<number, string>();
  for (const { name, report } of inputs) {
    const twin = byIndex.get(report.shard!.index);
    if (twin !== undefined) throw new UsageError(`${twin} and ${name} are both ${shardName(report.shard!)}: give each shard's report once`);
    byIndex.set(report.shard!.index, name);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new UsageError(`${missing.map((index) => shardName({ index, count })).join(', ')} missing: give the reports of all ${count} shards`);
}

/** A rule's coverage added up over the shards that measured it. */
function summedCoverage(rules: readonly ReportRule[]): RuleCoverage | undefined {
  const measured = rules.map((r) => r.coverage).filter((c): c is RuleCoverage => c !== undefined);
  if (!measured.length) return undefined;
  const sum = (of: (c: RuleCoverage) => number) => measured.reduce((total, c) => total + of(c), 0);
  // Distinct inputs of different shards may repeat one another: the sum is an upper bound.
  return { fixed: sum((c) => c.fixed), random: sum((c) => c.random), distinctInputs: sum((c) => c.distinctInputs), minimum: measured[0].minimum };
}

/** One rule of the merged report, from its entries in the shards (in shard order). */
function mergeRule(rules: readonly ReportRule[], strict: boolean): ReportRule {
  const [first] = rules;
  const coverage = summedCoverage(rules);
  const cases = rules.reduce((total, r) => total + r.cases, 0);
  const failures = rules.flatMap((r) => r.failures).slice(0, MAX_FAILURES_PER_RULE);
  const {
    status: _shard,
    blocking: _its,
    reason: _why,
    coverage: _part,
    cases: _some,
    failures: _found,
    ruledOutBy: _setting,
    failedCases: _counted,
    ...identity
  } = first;
  // A shard whose configuration ruled the rule out (one account of its share): the merged rule still is, if short.
  const ruledOutBy = rules.find((r) => r.ruledOutBy)?.ruledOutBy;
  // Each shard counted its own failing cases: the merge adds them up (a shard before 1.12.0 counted its kept ones).
  const failedCases = rules.reduce((n, r) => n + (r.failedCases ?? r.failures.length), 0);
  // No shard judged it (none could start): skipped, as there.
  if (!coverage) return { ...identity, status: 'skipped', blocking: false, cases, ...(first.reason ? { reason: first.reason } : {}), failures };
  const definition: Pick<RuleDefinition, 'basis'> = { basis: first.basis };
  const judged = ruleStatus(
    definition,
    {
      crashed: rules.some((r) => r.status === 'error'),
      failed: failures.length > 0,
      shortfall: mergedShortfall(
        coverage,
        coverage.minimum,
        rules.map((r) => r.reason ?? ''),
      ),
      ruledOut: ruledOutBy !== undefined,
    },
    strict,
  );
  return {
    ...identity,
    ...judged,
    ...(judged.status === 'inconclusive' && ruledOutBy ? { ruledOutBy } : {}),
    cases,
    coverage,
    failures,
    ...(failedCases ? { failedCases } : {}),
  };
}

/** Undocumented fields of all shards: one entry per path and operation, counts summed, sorted by path as a run lists them. */
function mergeUndocumented(reports: readonly ConformanceReport[]): ConformanceReport['undocumentedFields'] {
  const byKey = new Map<string, ConformanceReport['undocumentedFields'][number]>();
  for (const field of reports.flatMap((r) => r.undocumentedFields)) {
    const key = `${field.operation} ${field.path}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, count: seen.count + field.count } : { ...field });
  }
  return [...byKey.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** A shard whose run could not start judged nothing: its rules carry no coverage. */
const couldNotStart = (report: ConformanceReport): boolean => report.rules.length > 0 && report.rules.every((r) => r.coverage === undefined);

/** What the shards left behind (since 1.9.0; an older shard's report says nothing of it). */
/** The open space of the shards that judged one, their rules listed together. */
function mergedOpenSpace(reports: readonly ConformanceReport[]): { openSpace?: NonNullable<ConformanceReport['openSpace']> } {
  const spaces = reports.flatMap((r) => (r.openSpace ? [r.openSpace] : []));
  return spaces.length ? { openSpace: { perRule: Math.max(...spaces.map((s) => s.perRule)), rules: spaces.flatMap((s) => s.rules) } } : {};
}

function mergeLeftBehind(reports: readonly ConformanceReport[]): { restore?: RestoreSummary; createdIdentities: LedgerEntry[] } {
  const createdIdentities = reports.flatMap((r) => r.createdIdentities ?? []);
  const restores = reports.map((r) => r.restore).filter((r) => r !== undefined);
  if (!restores.length) return { createdIdentities };
  // Shards run with the same flags; should one have restored and another not, what the first
  // left changed must not vanish behind "restore was off".
  const restoring = restores.filter((r) => r.enabled);
  if (!restoring.length) return { createdIdentities, restore: RESTORE_OFF };
  const accounts = restoring.flatMap((r) => r.accounts);
  // Each shard journals in its own folder: every journal and repair command is kept.
  const journals = [...new Set(restoring.flatMap((r) => (r.journal ? [r.journal] : [])))];
  const repairs = [...new Set(restoring.flatMap((r) => (r.repair ? [r.repair] : [])))];
  return {
    createdIdentities,
    restore: {
      enabled: true,
      note: restoreNote(accounts),
      requests: restoring.reduce((n, r) => n + r.requests, 0),
      accounts,
      ...(journals.length ? { journal: journals.join(', ') } : {}),
      ...(repairs.length ? { repair: repairs.join(' && ') } : {}),
    },
  };
}

/**
 * The report of the whole run from every shard's report; throws a UsageError when they are not
 * the shards of one run (checkShards).
 */
export function mergeShardReports(inputs: readonly ShardInput[]): ConformanceReport {
  checkShards(inputs);
  const reports = [...inputs].sort((a, b) => a.report.shard!.index - b.report.shard!.index).map((i) => i.report);
  const [first] = reports;

  // A Map keeps the order in which rule ids first appear.
  const byId = new Map<string, ReportRule[]>();
  for (const rule of reports.flatMap((r) => r.rules)) byId.set(rule.id, [...(byId.get(rule.id) ?? []), rule]);
  const rules = [...byId.values()].map((shards) => mergeRule(shards, first.strict));

  const stopped: Stop | undefined = reports.find((r) => r.stopped)?.stopped;
  const transports = reports.map((r) => r.transport);
  const transport = transports.every((t) => t !== undefined)
    ? {
        exchanges: transports.reduce((n, t) => n + t!.exchanges, 0),
        unanswered: transports.reduce((n, t) => n + t!.unanswered, 0),
        byKind: {
          timeout: transports.reduce((n, t) => n + t!.byKind.timeout, 0),
          connection: transports.reduce((n, t) => n + t!.byKind.connection, 0),
          other: transports.reduce((n, t) => n + t!.byKind.other, 0),
        },
      }
    : undefined;
  const shrinks = reports.map((r) => r.shrinking).filter((s) => s !== undefined);
  const shrinking = shrinks.length
    ? {
        perFailure: shrinks[0].perFailure,
        perRun: shrinks[0].perRun,
        requests: shrinks.reduce((n, s) => n + s.requests, 0),
        cutShort: [...new Set(shrinks.flatMap((s) => s.cutShort))] as RuleId[],
      }
    : undefined;

  const facts: RunFacts = {
    baseUrl: first.target.baseUrl,
    embedded: first.target.embedded,
    ...(first.target.reading ? { reading: first.target.reading } : {}),
    ...(first.target.credentials ? { credentials: first.target.credentials } : {}),
    // Shards may update accounts of their own: the merged run used them all.
    fiatAccountIds: [...new Set(reports.flatMap((r) => r.target.fiatAccountIds ?? []))],
    seed: first.seed,
    profile: first.profile,
    runs: first.runs ?? 0,
    strict: first.strict,
    ...(first.ruleFilter ? { ruleFilter: first.ruleFilter } : {}),
  };
  const merged = buildReport(facts, rules, {
    startedAt: reports.map((r) => r.startedAt).sort()[0],
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    requests: reports.reduce((n, r) => n + r.summary.requests, 0),
    undocumentedFields: mergeUndocumented(reports),
    ...(stopped ? { stopped } : {}),
    ...(transport ? { transport } : {}),
    ...(shrinking ? { shrinking } : {}),
    // Shards before 1.7.0 tried no open point: theirs read as empty.
    observedContract: mergeContracts(reports.map((r) => contractOf(r).contract)),
    openCases: {
      accepted: reports.reduce((n, r) => n + (r.summary.openCases?.accepted ?? 0), 0),
      refused: reports.reduce((n, r) => n + (r.summary.openCases?.refused ?? 0), 0),
    },
    // The shard that runs the scenarios judged the open space (in a merge of several runs, each its own).
    ...mergedOpenSpace(reports),
    // Each shard restored its own accounts and created its own identities: the merge lists them all.
    ...mergeLeftBehind(reports),
  });
  // The tool and schemas that judged the shards, whichever version merges them.
  const result: ConformanceReport = { ...merged, tool: first.tool, schemasHash: first.schemasHash };
  const unstarted = reports.find(couldNotStart);
  if (!unstarted || stopped) return result;
  // A shard that judged nothing leaves its share unjudged: the whole run is no verdict (as a run that could not start).
  const why = unstarted.rules[0].reason ?? 'its run could not start';
  return { ...result, summary: { ...result.summary, verdict: 'error', reason: `${shardName(unstarted.shard!)} judged nothing: ${why}` } };
}

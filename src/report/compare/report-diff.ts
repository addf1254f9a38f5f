/**
 * Compares two conformance reports rule by rule: what fails now that passed before, what passes
 * now, what still fails, what is no longer judged (enough), and which rules appeared or
 * disappeared; and the verdicts. A regression is a rule that did not fail before and fails now,
 * a rule that passed before and is skipped or inconclusive now (coverage lost: a run that could
 * not start skips everything, a target that refuses most cases leaves rules inconclusive), a rule
 * that passed before and is missing from a run that stopped early, or a newly added rule that
 * fails. An inconclusive rule that passes now is newly passing; a failing rule that is
 * inconclusive now is shown (newly inconclusive) but is no regression: the failure did not
 * reproduce, the fix is not proven either. The observed contracts are compared too
 * (contract-diff.ts): their changes are listed, never counted as regressions.
 */
import type { ConformanceReport, ReportRule, RuleStatus, Verdict } from '../model/model.ts';
import { compareSections } from '../model/sections.ts';
import { diffContracts, type ContractDiff } from './contract-diff.ts';

export type ChangeKind = 'newly-failing' | 'newly-passing' | 'still-failing' | 'newly-inconclusive' | 'no-longer-judged' | 'added' | 'removed' | 'other';

export interface RuleChange {
  id: string;
  section: string;
  basis: ReportRule['basis'];
  kind: ChangeKind;
  before?: RuleStatus;
  after?: RuleStatus;
  /** First failure message of the new report when the rule fails there, or its reason when inconclusive or skipped. */
  message?: string;
  /** True when this change counts as a regression. */
  regression: boolean;
}

/** What a diff says of one report: its run, verdict, and where it stopped when it did. */
export interface ReportFacts {
  seed: number;
  startedAt: string;
  verdict: Verdict;
  baseUrl: string;
  /** Since report 1.3.0: the run stopped early because the target stopped answering. */
  stopped?: ConformanceReport['stopped'];
}

export interface ReportDiff {
  old: ReportFacts;
  new: ReportFacts;
  /** The verdicts before and after; `changed` when they differ. */
  verdict: { before: Verdict; after: Verdict; changed: boolean };
  newlyFailing: RuleChange[];
  newlyPassing: RuleChange[];
  stillFailing: RuleChange[];
  /** Failing before, inconclusive now: not reproduced, not proven fixed (since report 1.3.0). */
  newlyInconclusive: RuleChange[];
  noLongerJudged: RuleChange[];
  added: RuleChange[];
  removed: RuleChange[];
  /** Every listed change, grouped by document section in document order. */
  sections: { section: string; changes: RuleChange[] }[];
  regressions: number;
  /**
   * How the two runs differ in what they ran (target, seed, profile or runs, strict mode, rule
   * filter, shard): each makes a changed rule say less about the target. Empty when they match.
   */
  warnings: string[];
  /** How the observed contracts differ on open points: information, not regressions (since report 1.7.0). */
  observedContract: ContractDiff;
}

const failing = (s?: RuleStatus) => s === 'failed' || s === 'error';

/** `newerStopped`: the newer run stopped early, so a rule it lacks was not reached, not removed. */
function classify(before: ReportRule | undefined, after: ReportRule | undefined, newerStopped: boolean): ChangeKind {
  if (!before) return 'added';
  if (!after) return newerStopped && before.status === 'passed' ? 'no-longer-judged' : 'removed';
  if (failing(after.status) && !failing(before.status)) return 'newly-failing';
  if ((failing(before.status) || before.status === 'inconclusive') && after.status === 'passed') return 'newly-passing';
  if (failing(before.status) && failing(after.status)) return 'still-failing';
  if (failing(before.status) && after.status === 'inconclusive') return 'newly-inconclusive';
  if (before.status === 'passed' && (after.status === 'skipped' || after.status === 'inconclusive')) return 'no-longer-judged';
  return 'other';
}

const facts = (r: ConformanceReport): ReportFacts => ({
  seed: r.seed,
  startedAt: r.startedAt,
  verdict: r.summary.verdict,
  baseUrl: r.target.baseUrl,
  ...(r.stopped ? { stopped: r.stopped } : {}),
});

/** What the newer report says of a rule: its first failure, or why it was not judged (enough). */
function messageOf(after: ReportRule | undefined): string | undefined {
  if (!after) return undefined;
  if (failing(after.status)) return after.failures[0]?.message ?? after.reason;
  if (after.status === 'inconclusive' || after.status === 'skipped') return after.reason;
  return undefined;
}

/** The target as a diff names it: its URL, or the embedded server with its reading and fault. */
function targetName(r: ConformanceReport): string {
  if (!r.target.embedded) return r.target.baseUrl;
  const reading = Object.entries(r.target.reading ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return `the embedded reference server${reading ? ` (${reading})` : ''}`;
}

const filterName = (r: ConformanceReport): string => (r.ruleFilter?.length ? [...r.ruleFilter].sort().join(', ') : 'all rules');
const profileName = (r: ConformanceReport): string => `${r.profile}${r.runs !== undefined ? `, ${r.runs} random cases per rule` : ''}`;
const shardText = (r: ConformanceReport): string => (r.shard ? `shard ${r.shard.index}/${r.shard.count}` : 'the whole run');

/** What two runs can differ in, as runDifferences names it; a caller may leave some out. */
export type RunAspect = 'target' | 'seed' | 'profile' | 'strict' | 'rule-filter' | 'shard';

/**
 * Why comparing two reports may mislead: they come from different targets (the embedded server
 * counts as one target whatever its port, unless its reading or fault differ), seeds, profiles or
 * runs, strict modes, rule filters or shards. One sentence each; empty when the runs match.
 * `ignore`: aspects the caller compares on purpose or judges itself (the matrix: the targets).
 */
export function runDifferences(older: ConformanceReport, newer: ConformanceReport, ignore: readonly RunAspect[] = []): string[] {
  const warnings: string[] = [];
  const differ = (aspect: RunAspect, what: string, a: string, b: string, consequence: string) => {
    if (a !== b && !ignore.includes(aspect)) warnings.push(`the reports come from different ${what} (${a} → ${b}): ${consequence}`);
  };
  if (older.target.embedded && newer.target.embedded) {
    // One embedded server whatever its port: only its reading and fault tell two apart.
    const a = older.target.reading ?? {};
    const b = newer.target.reading ?? {};
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().filter((k) => a[k] !== b[k]);
    const side = (r: Record<string, string>) => keys.map((k) => `${k}=${r[k] ?? 'none'}`).join(', ');
    if (keys.length) differ('target', 'embedded servers', side(a), side(b), 'a changed rule may be the other reading or fault, not a change of the target');
  } else differ('target', 'targets', targetName(older), targetName(newer), 'a changed rule may be the other target, not a change of this one');
  differ(
    'seed',
    'seeds',
    String(older.seed),
    String(newer.seed),
    'the random cases differ, so a rule may pass or fail for the cases alone; compare runs of one seed (--seed)',
  );
  differ('profile', 'profiles', profileName(older), profileName(newer), 'the runs sent different numbers of cases');
  differ(
    'strict',
    'strict modes',
    older.strict ? 'strict' : 'not strict',
    newer.strict ? 'strict' : 'not strict',
    'convention rules block one verdict and not the other',
  );
  differ('rule-filter', 'rule filters', filterName(older), filterName(newer), 'rules outside one filter show as added or removed');
  differ(
    'shard',
    'shares of the run',
    shardText(older),
    shardText(newer),
    'a shard judges only its share of the cases; merge the shards (conformance merge) first',
  );
  return warnings;
}

/** The rule-by-rule difference between an older and a newer report. */
export function diffReports(older: ConformanceReport, newer: ConformanceReport): ReportDiff {
  const before = new Map(older.rules.map((r) => [r.id, r]));
  const after = new Map(newer.rules.map((r) => [r.id, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const changes: RuleChange[] = [];
  for (const id of ids) {
    const b = before.get(id);
    const a = after.get(id);
    const kind = classify(b, a, Boolean(newer.stopped));
    if (kind === 'other') continue;
    const rule = (a ?? b)!;
    const message = kind === 'no-longer-judged' && !a ? 'not reached: the run stopped early' : messageOf(a);
    changes.push({
      id,
      section: rule.section,
      basis: rule.basis,
      kind,
      ...(b ? { before: b.status } : {}),
      ...(a ? { after: a.status } : {}),
      ...(message ? { message } : {}),
      regression: kind === 'newly-failing' || kind === 'no-longer-judged' || (kind === 'added' && failing(a?.status)),
    });
  }
  changes.sort((x, y) => compareSections(x.section, y.section) || x.id.localeCompare(y.id));
  const of = (kind: ChangeKind) => changes.filter((c) => c.kind === kind);
  const sections = [...new Set(changes.map((c) => c.section))].map((section) => ({
    section,
    changes: changes.filter((c) => c.section === section),
  }));
  return {
    old: facts(older),
    new: facts(newer),
    verdict: { before: older.summary.verdict, after: newer.summary.verdict, changed: older.summary.verdict !== newer.summary.verdict },
    newlyFailing: of('newly-failing'),
    newlyPassing: of('newly-passing'),
    stillFailing: of('still-failing'),
    newlyInconclusive: of('newly-inconclusive'),
    noLongerJudged: of('no-longer-judged'),
    added: of('added'),
    removed: of('removed'),
    sections,
    regressions: changes.filter((c) => c.regression).length,
    warnings: runDifferences(older, newer),
    observedContract: diffContracts(older, newer),
  };
}

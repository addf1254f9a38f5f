/**
 * Compares two conformance reports rule by rule: what fails now that passed before, what passes
 * now, what still fails, what is no longer judged, and which rules appeared or disappeared. A
 * regression is a rule that did not fail before and fails now, a rule that passed before and is
 * skipped now (coverage lost: a run that could not start skips everything), or a newly added
 * rule that fails.
 */
import type { ConformanceReport, ReportRule, RuleStatus } from './model.ts';
import { compareSections } from './sections.ts';

export type ChangeKind = 'newly-failing' | 'newly-passing' | 'still-failing' | 'no-longer-judged' | 'added' | 'removed' | 'other';

export interface RuleChange {
  id: string;
  section: string;
  basis: ReportRule['basis'];
  kind: ChangeKind;
  before?: RuleStatus;
  after?: RuleStatus;
  /** First failure message of the new report, when the rule fails there. */
  message?: string;
  /** True when this change counts as a regression. */
  regression: boolean;
}

export interface ReportDiff {
  old: { seed: number; startedAt: string; verdict: string; baseUrl: string };
  new: { seed: number; startedAt: string; verdict: string; baseUrl: string };
  newlyFailing: RuleChange[];
  newlyPassing: RuleChange[];
  stillFailing: RuleChange[];
  noLongerJudged: RuleChange[];
  added: RuleChange[];
  removed: RuleChange[];
  /** Every listed change, grouped by document section in document order. */
  sections: { section: string; changes: RuleChange[] }[];
  regressions: number;
}

const failing = (s?: RuleStatus) => s === 'failed' || s === 'error';

function classify(before: ReportRule | undefined, after: ReportRule | undefined): ChangeKind {
  if (!before) return 'added';
  if (!after) return 'removed';
  if (failing(after.status) && !failing(before.status)) return 'newly-failing';
  if (failing(before.status) && after.status === 'passed') return 'newly-passing';
  if (failing(before.status) && failing(after.status)) return 'still-failing';
  if (before.status === 'passed' && after.status === 'skipped') return 'no-longer-judged';
  return 'other';
}

const facts = (r: ConformanceReport) => ({ seed: r.seed, startedAt: r.startedAt, verdict: r.summary.verdict, baseUrl: r.target.baseUrl });

/** The rule-by-rule difference between an older and a newer report. */
export function diffReports(older: ConformanceReport, newer: ConformanceReport): ReportDiff {
  const before = new Map(older.rules.map((r) => [r.id, r]));
  const after = new Map(newer.rules.map((r) => [r.id, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const changes: RuleChange[] = [];
  for (const id of ids) {
    const b = before.get(id);
    const a = after.get(id);
    const kind = classify(b, a);
    if (kind === 'other') continue;
    const rule = (a ?? b)!;
    const message = a && failing(a.status) ? (a.failures[0]?.message ?? a.reason) : undefined;
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
    newlyFailing: of('newly-failing'),
    newlyPassing: of('newly-passing'),
    stillFailing: of('still-failing'),
    noLongerJudged: of('no-longer-judged'),
    added: of('added'),
    removed: of('removed'),
    sections,
    regressions: changes.filter((c) => c.regression).length,
  };
}

/**
 * The matrix of several reports (`conformance matrix`): the same rules judged on several targets,
 * side by side. One row per rule with each target's status and first failure (in the target's
 * words), the rows where the targets differ first; the verdicts; then the observed contracts side
 * by side, per open point, and what a client written against one target would break on another:
 * the values one target accepted that another refused, as both runs observed them.
 *
 * The reports must come from one harness rule set (the same rule ids and `schemasHash`) and, unless
 * the caller allows it, one seed: otherwise a difference between columns may be the harness's or
 * the cases', not the targets'. Other differences in what the runs ran are warnings, as diff's.
 */
import { UsageError } from '../../core/errors.ts';
import { compareLimits, limitKey } from '../../core/observed-contract.ts';
import type { ObservedAnswer, ObservedLimit, OpenKind } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import { oneLine } from '../../core/text.ts';
import { firstRefusalText } from '../model/contract-text.ts';
import { failureLine } from '../model/failure-line.ts';
import type { ConformanceReport, ReportRule, RuleStatus, Verdict } from '../model/model.ts';
import { contractOf } from '../model/report-contract.ts';
import { compareSections } from '../model/sections.ts';
import { runDifferences } from './report-diff.ts';

/**
 * A cell's message, in code points: the first failure with the target's words, or the reason. Cut
 * here, where failureLine shortens the harness's sentence before the quote, so no renderer has to
 * cut the target's words off the end.
 */
export const MATRIX_MESSAGE_WIDTH = 160;

/** What a column says of an open point when its report predates the observed contract (1.7.0). */
export const NOT_RECORDED = 'not recorded (report before 1.7.0)';

/** One report given to the matrix: where it was read from, and the name the user gave it. */
export interface MatrixInput {
  report: ConformanceReport;
  file: string;
  name?: string;
}

/** One column: a target, its run and its verdict. */
export interface MatrixTarget {
  /** `--name`, else the target's base URL (made distinct: ` (2)` after a repeated one). */
  name: string;
  file: string;
  baseUrl: string;
  embedded: boolean;
  /** Embedded server only: its reading, and the fault injected. */
  reading?: Record<string, string>;
  seed: number;
  profile: string;
  runs?: number;
  strict: boolean;
  startedAt: string;
  verdict: Verdict;
  /** The report's counts. */
  counts: { rules: number; passed: number; failed: number; inconclusive: number; skipped: number; errors: number; requests: number };
  /** `summary.reason`, or the stop's message, when the report has one. */
  reason?: string;
  /** False for a report before 1.7.0: it records no observed contract, so its column has none. */
  contractRecorded: boolean;
}

/** One target's outcome of one rule. */
export interface MatrixCell {
  status: RuleStatus;
  blocking: boolean;
  /** The first failure with what the target said, or the reason of a rule not passed; shortened. */
  message?: string;
}

/** One rule across the targets. */
export interface MatrixRow {
  id: string;
  operation: Operation;
  section: string;
  basis: ReportRule['basis'];
  title: string;
  /** One per target, in the targets' order. */
  cells: MatrixCell[];
  /** The targets do not all have the same status. */
  differs: boolean;
}

/** What one target observed on one open point; null in `MatrixPoint.cells` when its run did not try it (or its report records no contract). */
export interface MatrixPointCell {
  summary: string;
  /** The first refusal, `400: <the target's words>`, when something was refused. */
  firstRefusal?: string;
}

/** One open point (operation, field, kind) across the targets. */
export interface MatrixPoint {
  operation: Operation;
  field: string;
  kind: OpenKind;
  cells: (MatrixPointCell | null)[];
  /** At least two targets tried the point and their summaries differ. */
  differs: boolean;
}

/**
 * What a client written against one of `clients` would break on `target`: the values each of
 * `clients` accepted and `target` refused on one open point, as both runs observed them.
 */
export interface ContractBreak {
  /** The targets that accepted the values (several when they accepted the same ones). */
  clients: string[];
  target: string;
  operation: Operation;
  field: string;
  kind: OpenKind;
  /** The values, as the contracts describe them (`255 characters`, `GB`, `1899-12-31`); a length range as `36 to 200 characters`. */
  values: string[];
  /** The refusal of `target`: its status and words. */
  status: number;
  said?: string;
  /** One sentence for people. */
  text: string;
}

export interface ReportMatrix {
  targets: MatrixTarget[];
  /** The rules, those whose status differs between targets first, then by section. */
  rows: MatrixRow[];
  /** Every open point any run tried, in the contract's order. */
  points: MatrixPoint[];
  breaks: ContractBreak[];
  /** How the runs differ in what they ran (profile, strict mode, rule filter, shard, seed when allowed). */
  warnings: string[];
  /** Every target's verdict is conformant. */
  conformant: boolean;
}

export interface MatrixOptions {
  /** Different seeds are a warning instead of a usage error. */
  allowDifferentSeeds?: boolean;
}

/** The names of the columns: given, else the base URL; a repeated one gets ` (2)`, ` (3)`. */
function columnNames(inputs: readonly MatrixInput[]): string[] {
  const seen = new Map<string, number>();
  return inputs.map(({ name, report }) => {
    const wanted = name ?? report.target.baseUrl;
    const n = (seen.get(wanted) ?? 0) + 1;
    seen.set(wanted, n);
    return n === 1 ? wanted : `${wanted} (${n})`;
  });
}

const someIds = (ids: readonly string[]): string => (ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', '));

/** Refuses reports judged by different rules or schemas, and (unless allowed) runs of different seeds: one line each. */
function checkComparable(inputs: readonly MatrixInput[], options: MatrixOptions): void {
  const [first, ...others] = inputs;
  const ids = new Set(first.report.rules.map((r) => r.id));
  for (const other of others) {
    const theirs = new Set(other.report.rules.map((r) => r.id));
    const onlyFirst = [...ids].filter((id) => !theirs.has(id));
    const onlyOther = [...theirs].filter((id) => !ids.has(id));
    if (onlyFirst.length || onlyOther.length) {
      const parts = [
        onlyFirst.length ? `only in ${first.file}: ${someIds(onlyFirst)}` : '',
        onlyOther.length ? `only in ${other.file}: ${someIds(onlyOther)}` : '',
      ];
      throw new UsageError(
        oneLine(
          `${other.file} and ${first.file} were judged by different rules (${parts.filter(Boolean).join('; ')}): compare reports of one harness version with the same --rule filters`,
          400,
        ),
      );
    }
    if (other.report.schemasHash !== first.report.schemasHash) {
      throw new UsageError(
        `${other.file} and ${first.file} were judged by different schemas (schemasHash ${other.report.schemasHash.slice(0, 12)}… and ${first.report.schemasHash.slice(0, 12)}…): compare reports of one harness version`,
      );
    }
  }
  const seeds = [...new Set(inputs.map((i) => i.report.seed))];
  if (seeds.length > 1 && !options.allowDifferentSeeds) {
    const which = inputs.map((i) => `${i.file}: ${i.report.seed}`).join(', ');
    throw new UsageError(
      oneLine(
        `the reports come from different seeds (${which}): their random cases differ, so a column may pass or fail for its cases alone; run every target with one --seed, or give --allow-different-seeds`,
        400,
      ),
    );
  }
}

function targetOf(input: MatrixInput, name: string): MatrixTarget {
  const r = input.report;
  const s = r.summary;
  const reason = s.reason ?? r.stopped?.message;
  return {
    name,
    file: input.file,
    baseUrl: r.target.baseUrl,
    embedded: r.target.embedded,
    ...(r.target.reading ? { reading: r.target.reading } : {}),
    seed: r.seed,
    profile: r.profile,
    ...(r.runs !== undefined ? { runs: r.runs } : {}),
    strict: r.strict,
    startedAt: r.startedAt,
    verdict: s.verdict,
    counts: {
      rules: s.rules,
      passed: s.passed,
      failed: s.failed,
      inconclusive: s.inconclusive ?? r.rules.filter((rule) => rule.status === 'inconclusive').length,
      skipped: s.skipped,
      errors: s.errors,
      requests: s.requests,
    },
    ...(reason ? { reason } : {}),
    contractRecorded: contractOf(r).recorded,
  };
}

/** Opens the message of a failure that does not block its run's verdict (a convention rule without --strict). */
const NOT_BLOCKING = 'not blocking (a convention rule, fatal only with --strict): ';

/** A rule's cell: its status, and what its first failure says (with the target's words) or why it was not judged. */
function cellOf(rule: ReportRule): MatrixCell {
  const first = rule.failures[0];
  const blocking = rule.blocking ?? false;
  const opening = rule.status === 'failed' && !blocking ? NOT_BLOCKING : '';
  const message = first
    ? opening + failureLine(first, rule.id, { width: MATRIX_MESSAGE_WIDTH - opening.length })
    : rule.status !== 'passed' && rule.reason
      ? oneLine(rule.reason, MATRIX_MESSAGE_WIDTH)
      : undefined;
  return { status: rule.status, blocking, ...(message ? { message } : {}) };
}

function rowsOf(reports: readonly ConformanceReport[]): MatrixRow[] {
  const byTarget = reports.map((r) => new Map(r.rules.map((rule) => [rule.id, rule])));
  const rows = reports[0].rules.map(({ id, operation, section, basis, title }): MatrixRow => {
    const cells = byTarget.map((rules) => cellOf(rules.get(id)!));
    return { id, operation, section, basis, title, cells, differs: new Set(cells.map((c) => c.status)).size > 1 };
  });
  return rows.sort((a, b) => Number(b.differs) - Number(a.differs) || compareSections(a.section, b.section) || a.id.localeCompare(b.id));
}

/** Every open point any of the contracts holds, once, in the contract's order. */
const allPoints = (contracts: readonly Map<string, ObservedLimit>[]): ObservedLimit[] =>
  [...new Map(contracts.flatMap((c) => [...c])).values()].sort(compareLimits);

function pointsOf(contracts: readonly Map<string, ObservedLimit>[]): MatrixPoint[] {
  return allPoints(contracts).map((point) => {
    const cells = contracts.map((c): MatrixPointCell | null => {
      const limit = c.get(limitKey(point));
      if (!limit) return null;
      const refusal = firstRefusalText(limit);
      return { summary: limit.summary, ...(refusal ? { firstRefusal: refusal } : {}) };
    });
    const tried = cells.filter((c) => c !== null);
    return {
      operation: point.operation,
      field: point.field,
      kind: point.kind,
      cells,
      differs: tried.length > 1 && new Set(tried.map((c) => c.summary)).size > 1,
    };
  });
}

/** `255 characters` → 255; undefined for another description (`empty`). */
const lengthOf = (value: string): number | undefined => {
  const match = /^(\d+) characters?$/.exec(value);
  return match ? Number(match[1]) : undefined;
};

const characters = (from: number, to: number): string => (from === to ? `${from} characters` : `${from} to ${to} characters`);

/**
 * What `accepting` accepted and `refusing` refused on one point: the values both tried, and for a
 * length, the lengths from the shortest `refusing` refused up to the longest `accepting` accepted
 * (both observed), when `refusing` accepted nothing as long as the first (its refusals lie above
 * its acceptances: a limit, not a stray refusal); a date the one accepted as its earliest or latest
 * and the other refused. Never a value neither run sent.
 */
function brokenValues(accepting: ObservedLimit, refusing: ObservedLimit): { values: string[]; refusal: ObservedAnswer } | undefined {
  const refused = new Map(refusing.refused.map((r) => [r.value, r]));
  const bounds = [accepting.earliestAccepted, accepting.latestAccepted].filter((d) => d !== undefined);
  const exact = [...new Set([...accepting.accepted, ...(accepting.kind === 'date' ? bounds : [])])].filter((v) => refused.has(v));
  const longest = accepting.longestAccepted;
  const shortest = refusing.shortestRefused;
  const aLimit = shortest !== undefined && (refusing.longestAccepted === undefined || refusing.longestAccepted < shortest);
  if (accepting.kind === 'length' && longest !== undefined && shortest !== undefined && aLimit && shortest <= longest) {
    const inRange = (v: string) => {
      const n = lengthOf(v);
      return n !== undefined && n >= shortest && n <= longest;
    };
    const refusal = refusing.refused.find((r) => lengthOf(r.value) === shortest) ?? refusing.refused[0];
    return { values: [characters(shortest, longest), ...exact.filter((v) => !inRange(v))], refusal };
  }
  return exact.length ? { values: exact, refusal: refused.get(exact[0])! } : undefined;
}

/** The sentence of a break: `a client written against A or B may send <field> (<operation>, <kind>) 255 characters, which they accepted: C refuses it (400: …)`. */
function breakText(b: Omit<ContractBreak, 'text'>): string {
  const clients = b.clients.join(' or ');
  const answer = `${b.status}${b.said ? `: ${oneLine(b.said, 120)}` : ''}`;
  const which = b.clients.length > 1 ? 'they' : b.clients[0];
  return `a client written against ${clients} may send ${b.field} (${b.operation}, ${b.kind}) ${b.values.join(', ')}, which ${which} accepted: ${b.target} refuses it (${answer})`;
}

/** Per open point and refusing target, the values other targets accepted; clients that accepted the same values share one break. */
function breaksOf(names: readonly string[], contracts: readonly Map<string, ObservedLimit>[]): ContractBreak[] {
  const breaks: ContractBreak[] = [];
  for (const key of allPoints(contracts).map(limitKey)) {
    for (const [b, target] of names.entries()) {
      const refusing = contracts[b].get(key);
      const byValues = new Map<string, Omit<ContractBreak, 'text'>>();
      for (const [a, client] of names.entries()) {
        const accepting = contracts[a].get(key);
        const broken = a !== b && accepting && refusing ? brokenValues(accepting, refusing) : undefined;
        if (!accepting || !broken) continue;
        const same = byValues.get(broken.values.join('\n'));
        if (same) same.clients.push(client);
        else {
          const { status, said } = broken.refusal;
          const { operation, field, kind } = accepting;
          byValues.set(broken.values.join('\n'), {
            clients: [client],
            target,
            operation,
            field,
            kind,
            values: broken.values,
            status,
            ...(said ? { said } : {}),
          });
        }
      }
      breaks.push(...[...byValues.values()].map((found) => ({ ...found, text: breakText(found) })));
    }
  }
  return breaks;
}

/** How each run differs from the first in what it ran; the targets differ on purpose, the seeds only when allowed. */
function warningsOf(inputs: readonly MatrixInput[], names: readonly string[]): string[] {
  const [first, ...others] = inputs;
  return others.flatMap((other, i) => runDifferences(first.report, other.report, ['target']).map((w) => `${names[0]} and ${names[i + 1]}: ${w}`));
}

/** The matrix of two or more reports, in the order given. Throws a UsageError for reports that cannot be compared. */
export function buildMatrix(inputs: readonly MatrixInput[], options: MatrixOptions = {}): ReportMatrix {
  if (inputs.length < 2) throw new UsageError('give two or more report files: conformance matrix a/conformance.json b/conformance.json ...');
  checkComparable(inputs, options);
  const names = columnNames(inputs);
  const reports = inputs.map((i) => i.report);
  const contracts = reports.map((r) => new Map(contractOf(r).contract.limits.map((l) => [limitKey(l), l])));
  const targets = inputs.map((input, i) => targetOf(input, names[i]));
  return {
    targets,
    rows: rowsOf(reports),
    points: pointsOf(contracts),
    breaks: breaksOf(names, contracts),
    warnings: warningsOf(inputs, names),
    conformant: targets.every((t) => t.verdict === 'conformant'),
  };
}

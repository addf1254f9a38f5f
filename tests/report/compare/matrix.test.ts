import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.ts';
import type { ObservedLimit } from '../../../src/core/open-point.ts';
import { summarizeLimit } from '../../../src/core/observed-contract.ts';
import { buildMatrix, type MatrixInput, type ReportMatrix } from '../../../src/report/compare/matrix.ts';
import { matrixConsoleLines } from '../../../src/report/compare/matrix-console.ts';
import { renderMatrixHtml } from '../../../src/report/compare/matrix-html.ts';
import { renderMatrixMarkdown } from '../../../src/report/compare/matrix-markdown.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { palette } from '../../../src/report/terminal/colour.ts';
import { HOSTILE, legacyReport, sampleReport } from '../sample-report.ts';
import { FAULT_RULE, MATRIX_NAMES, type MatrixRuns, matrixRuns } from '../matrix-runs.ts';

const inputsOf = (runs: MatrixRuns): MatrixInput[] => MATRIX_NAMES.map((name) => ({ report: runs[name], file: `${name}.json`, name }));

const limitOf = (report: ConformanceReport, key: string): ObservedLimit => {
  const limit = report.observedContract!.limits.find((l) => `${l.operation} ${l.field} ${l.kind}` === key);
  if (!limit) throw new Error(`the run tried no ${key}`);
  return limit;
};

/** The length points where the strict server restricts names (at most 200) and address lines (at most 35). */
const LENGTH_POINTS = ['createIdentity person_details.first_name length', 'createIdentity person_details.address.address1 length'];

describe('the matrix of the embedded server, its strict variant and a fault', () => {
  let runs: MatrixRuns;
  let matrix: ReportMatrix;
  beforeAll(async () => {
    runs = await matrixRuns();
    matrix = buildMatrix(inputsOf(runs));
  });

  it("fails the fault's rule in the fault's column only, in the target's words, among the rows that differ, listed first", () => {
    expect(matrix.targets.map((t) => t.verdict)).toEqual(['conformant', 'conformant', 'non-conformant']);
    expect(matrix.conformant).toBe(false);
    const row = matrix.rows.find((r) => r.id === FAULT_RULE)!;
    expect(row.cells.map((c) => c.status)).toEqual(['passed', 'passed', 'failed']);
    expect(row.differs).toBe(true);
    expect(row.cells[2].message).toMatch(/a valid request was not accepted \(HTTP 400\) — target said: ".*last_name/);
    const firstAlike = matrix.rows.findIndex((r) => !r.differs);
    expect(matrix.rows.slice(0, firstAlike).map((r) => r.id)).toContain(FAULT_RULE);
    expect(matrix.rows.slice(firstAlike).every((r) => !r.differs)).toBe(true);
    // Only the faulty server fails a rule: every other rule that differs is not failed in the first two columns.
    for (const r of matrix.rows) expect(r.cells.slice(0, 2).map((c) => c.status)).not.toContain('failed');
  });

  it("sets the strict server's name and address length limits beside the embedded server's, and what a client of one breaks on the other", () => {
    for (const key of LENGTH_POINTS) {
      const point = matrix.points.find((p) => `${p.operation} ${p.field} ${p.kind}` === key)!;
      const embedded = limitOf(runs.embedded, key);
      const strict = limitOf(runs.strict, key);
      expect(point.differs, key).toBe(true);
      expect(point.cells[0]?.summary).toBe(embedded.summary);
      expect(point.cells[1]?.summary).toBe(strict.summary);
      expect(point.cells[1]?.firstRefusal).toMatch(/^400: .*at most (200|35) characters/);
      // From the shortest length strict refused to the longest the embedded server accepted: both observed.
      const from = strict.shortestRefused!;
      const to = embedded.longestAccepted!;
      expect(from).toBeLessThanOrEqual(to);
      const found = matrix.breaks.find((b) => `${b.operation} ${b.field} ${b.kind}` === key && b.target === 'strict');
      expect(found?.clients, key).toContain('embedded');
      expect(found?.values[0]).toBe(from === to ? `${from} characters` : `${from} to ${to} characters`);
      expect(found?.text).toContain(`a client written against embedded or faulty may send ${point.field}`);
      // The strict server accepted nothing the others refused there.
      expect(matrix.breaks.some((b) => `${b.operation} ${b.field} ${b.kind}` === key && b.target !== 'strict')).toBe(false);
    }
  });

  it('says both in the console, in Markdown and in HTML', () => {
    const strictSummary = limitOf(runs.strict, LENGTH_POINTS[1]).summary;
    const text = matrixConsoleLines(matrix, palette(false)).join('\n');
    expect(text).toMatch(new RegExp(`≠ ${FAULT_RULE.replace('.', '\\.')}\\s+§4\\.1\\s+passed\\s+passed\\s+failed`));
    expect(text).toMatch(/\n {6}C: only the first name of the owner: a valid request was not accepted \(HTTP 400\) — target said/);
    expect(text).toContain(
      `  createIdentity person_details.address.address1, length\n      A: ${limitOf(runs.embedded, LENGTH_POINTS[1]).summary}\n      B: ${strictSummary}`,
    );
    expect(text.split('\n').at(-1)).toBe('3 targets: 1 not conformant (faulty: non-conformant)');
    const passedEverywhere = matrix.rows.filter((r) => r.cells.every((c) => c.status === 'passed')).length;
    expect(text).toContain(`\n  + ${passedEverywhere} rules passed on every target\n  verdict `);
    expect(text).not.toMatch(/^ {2}id\.valid-accepted /m);
    const markdown = renderMatrixMarkdown(matrix);
    expect(markdown).toMatch(/\| ≠ `fa\.valid-accepted` \| 4\.1 \| ✅ passed \| ✅ passed \| ❌ failed: .*last_name/);
    expect(markdown).toContain(`| **Verdict** | | **conformant** | **conformant** | **non-conformant** |`);
    // The rules every target passed come after the verdict, collapsed.
    const collapsed = markdown.slice(markdown.indexOf('| **Verdict**'));
    expect(collapsed).toMatch(
      /\n<details>\n<summary>\d+ rules passed on every target<\/summary>\n\n\| Rule \|[\s\S]*\| `id\.valid-accepted` \| 4\.2 \| ✅ passed \| ✅ passed \| ✅ passed \|[\s\S]*\n<\/details>\n/,
    );
    expect(markdown).toMatch(
      new RegExp(`\\| \`person_details\\.address\\.address1\` \\(createIdentity\\), length \\| [^|]+ \\| ${strictSummary.replace(/[()]/g, '\\$&')}`),
    );
    const html = renderMatrixHtml(matrix);
    expect(html).toMatch(/<tr data-rule="fa\.valid-accepted" class="differs"[^>]*>.*<td class="cell" data-target="faulty" data-status="failed">/);
    expect(html).toContain(strictSummary);
  });
});

/** A copy of the sample report with changes. */
const variant = (change: (r: ConformanceReport) => void = () => {}): ConformanceReport => {
  const report = sampleReport();
  change(report);
  return report;
};

describe('reports that cannot be compared', () => {
  const expectUsage = (inputs: MatrixInput[], pattern: RegExp, options = {}) => {
    let error: unknown;
    try {
      buildMatrix(inputs, options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('\n');
  };

  it('refuses fewer than two reports', () => {
    expectUsage([{ report: sampleReport(), file: 'a.json' }], /give two or more report files/);
  });

  it('refuses reports of different rule sets: the rule ids, or the schemas', () => {
    const fewer = variant((r) => {
      r.rules = r.rules.filter((rule) => rule.id !== 'fa.status.enum');
    });
    expectUsage(
      [
        { report: sampleReport(), file: 'a.json' },
        { report: fewer, file: 'b.json' },
      ],
      /^b\.json and a\.json were judged by different rules \(only in a\.json: fa\.status\.enum\): compare reports of one harness version/,
    );
    const otherSchemas = variant((r) => {
      r.schemasHash = 'f'.repeat(64);
    });
    expectUsage(
      [
        { report: sampleReport(), file: 'a.json' },
        { report: otherSchemas, file: 'b.json' },
      ],
      /b\.json and a\.json were judged by different schemas \(schemasHash ffffffffffff… and a3f1c9e07b5d…\)/,
    );
  });

  it('refuses runs of different seeds unless allowed; then the seeds are a warning, as the profiles are', () => {
    const other = variant((r) => {
      r.seed = 7;
      r.profile = 'quick';
      r.target.baseUrl = 'http://127.0.0.1:5000';
    });
    const inputs = [
      { report: sampleReport(), file: 'a.json' },
      { report: other, file: 'b.json' },
    ];
    expectUsage(inputs, /the reports come from different seeds \(a\.json: 424242, b\.json: 7\).*give --allow-different-seeds/);
    const m = buildMatrix(inputs, { allowDifferentSeeds: true });
    expect(m.warnings).toEqual([
      'http://127.0.0.1:4010 and http://127.0.0.1:5000: the reports come from different seeds (424242 → 7): the random cases differ, so a rule may pass or fail for the cases alone; compare runs of one seed (--seed)',
      'http://127.0.0.1:4010 and http://127.0.0.1:5000: the reports come from different profiles (standard → quick): the runs sent different numbers of cases',
    ]);
  });
});

describe('the columns', () => {
  it('are named by --name, else by the base URL, a repeated name made distinct', () => {
    const m = buildMatrix([
      { report: sampleReport(), file: 'a.json' },
      { report: sampleReport(), file: 'b.json' },
      { report: sampleReport(), file: 'c.json', name: 'staging' },
    ]);
    expect(m.targets.map((t) => t.name)).toEqual(['http://127.0.0.1:4010', 'http://127.0.0.1:4010 (2)', 'staging']);
    // Identical reports: no rule and no open point differs, nothing breaks, and the sample run is not conformant.
    expect(m.rows.some((r) => r.differs)).toBe(false);
    expect(m.points.some((p) => p.differs)).toBe(false);
    expect(m.breaks).toEqual([]);
    expect(m.conformant).toBe(false);
  });
});

describe('the cells', () => {
  it('say when a failure does not block its verdict, and when a report records no observed contract', () => {
    const fixed = variant((r) => {
      const rule = r.rules.find((x) => x.id === 'id.answers')!;
      Object.assign(rule, { status: 'passed', failures: [] });
    });
    const m = buildMatrix([
      { report: sampleReport(), file: 'a.json', name: 'convention failing' },
      { report: fixed, file: 'b.json', name: 'answering' },
      { report: legacyReport(), file: 'c.json', name: 'legacy' },
    ]);
    const row = m.rows.find((r) => r.id === 'id.answers')!;
    expect(row.differs).toBe(true);
    expect(row.cells[0]).toMatchObject({ status: 'failed', blocking: false });
    expect(row.cells[0].message).toMatch(/^not blocking \(a convention rule, fatal only with --strict\): /);
    expect(row.cells[2].message).toMatch(/^not blocking/);
    expect(m.targets.map((t) => t.contractRecorded)).toEqual([true, true, false]);
    expect(m.points.every((p) => p.cells[2] === null)).toBe(true);
    expect(renderMatrixHtml(m)).toContain('<span class="empty">not recorded (report before 1.7.0)</span>');
  });
});

describe('what a client written against one target would break on another', () => {
  const address1 = (r: ConformanceReport) => r.observedContract!.limits.find((l) => l.field === 'person_details.address.address1')!;
  const country = (r: ConformanceReport) => r.observedContract!.limits.find((l) => l.field === 'person_details.address.country')!;
  /** A target that accepted address lines of up to `longest` characters and every country code it was sent. */
  const lenient = (longest: number) =>
    variant((r) => {
      const { shortestRefused, ...lengths } = address1(r);
      Object.assign(lengths, { accepted: ['12 characters', `${longest} characters`], refused: [], longestAccepted: longest });
      Object.assign(country(r), { accepted: ['GBR', 'XKX'], refused: [] });
      r.observedContract!.limits = r.observedContract!.limits.map((l) => (l.field === lengths.field ? lengths : l));
      for (const limit of r.observedContract!.limits) limit.summary = summarizeLimit(limit);
    });

  it('lists the lengths from the shortest one target refused to the longest the other accepted, and the values one accepted and the other refused', () => {
    const m = buildMatrix([
      { report: lenient(200), file: 'a.json', name: 'lenient' },
      { report: lenient(200), file: 'b.json', name: 'lenient too' },
      { report: sampleReport(), file: 'c.json', name: 'strict' },
    ]);
    const lengths = m.breaks.find((b) => b.field === 'person_details.address.address1')!;
    expect(lengths).toMatchObject({ clients: ['lenient', 'lenient too'], target: 'strict', values: ['36 to 200 characters'], status: 422 });
    expect(lengths.text).toBe(
      'a client written against lenient or lenient too may send person_details.address.address1 (createIdentity, length) 36 to 200 characters, which they accepted: strict refuses it (422: address1 is longer than 35 characters)',
    );
    const codes = m.breaks.find((b) => b.field === 'person_details.address.country')!;
    expect(codes).toMatchObject({ clients: ['lenient', 'lenient too'], target: 'strict', values: ['XKX'], status: 400 });
    // The strict target accepted nothing the lenient ones refused.
    expect(m.breaks.every((b) => b.target === 'strict')).toBe(true);
  });

  it('never extrapolates: a length no target both accepted and the other refused is no break', () => {
    const m = buildMatrix([
      { report: lenient(30), file: 'a.json', name: 'short' },
      { report: sampleReport(), file: 'b.json', name: 'strict' },
    ]);
    expect(m.breaks.filter((b) => b.field === 'person_details.address.address1')).toEqual([]);
    expect(m.points.find((p) => p.field === 'person_details.address.address1')?.differs).toBe(true);
  });

  it('lists only the lengths both sent when the refusing target refused a length shorter than one it accepted (no limit there)', () => {
    const stray = variant((r) => {
      const limit = address1(r);
      Object.assign(limit, { accepted: ['12 characters', '100 characters'], longestAccepted: 100 });
      limit.summary = summarizeLimit(limit);
    });
    const m = buildMatrix([
      { report: lenient(200), file: 'a.json', name: 'lenient' },
      { report: stray, file: 'b.json', name: 'stray' },
    ]);
    // stray refused 36 and 200 characters but accepted 100: only 200, which both sent, breaks.
    expect(m.breaks.find((b) => b.field === 'person_details.address.address1')?.values).toEqual(['200 characters']);
  });

  it('renders the target words as text: hostile names and refusals are escaped in HTML and Markdown', () => {
    const m = buildMatrix([
      { report: lenient(200), file: 'a.json', name: HOSTILE.script },
      { report: sampleReport(), file: 'b.json', name: 'b | c' },
    ]);
    const html = renderMatrixHtml(m);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    const markdown = renderMatrixMarkdown(m);
    expect(markdown).not.toContain('<script>');
    expect(markdown).toContain('b \\| c');
    // The country refusal quotes a pipe: the break stays one list item.
    expect(markdown).toMatch(/^- a client .*person_details\.address\.country.*GBR \\\| DEU \\\| FRA/m);
  });
});

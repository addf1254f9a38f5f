/**
 * `conformance matrix` over three real runs (the embedded server, its strict variant, a fault):
 * the binary in every format, and its usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { testIO } from './test-io.ts';
import type { ReportMatrix } from '../../src/report/compare/matrix.ts';
import { conformance } from './binary.ts';
import { FAULT_RULE, MATRIX_NAMES, type MatrixRuns, matrixRuns, writeMatrixRuns } from '../report/matrix-runs.ts';

let dir: string;
let runs: MatrixRuns;
let files: string[];
const names = MATRIX_NAMES.flatMap((n) => ['--name', n]);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'conformance-matrix-'));
  runs = await matrixRuns();
  files = await writeMatrixRuns(dir, runs);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The strict server's summary of an open point, as its report wrote it. */
const strictSummary = (field: string) =>
  runs.strict.observedContract!.limits.find((l) => l.operation === 'createIdentity' && l.field === field && l.kind === 'length')!.summary;

describe('conformance matrix, the binary', () => {
  it('prints the rules by target and the differing contracts; exit 1 when a target is not conformant', async () => {
    const { code, stdout, stderr } = await conformance(['matrix', ...files, ...names]);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^ {2}C {2}faulty {2}http:\/\/127\.0\.0\.1:\d+ \(fault fa-owner-both-names-required\) {2}seed 1 {2}non-conformant/m);
    expect(stdout).toMatch(/^≠ fa\.valid-accepted\s+§4\.1\s+passed\s+passed\s+failed$/m);
    expect(stdout).toContain(`      B: ${strictSummary('person_details.address.address1')}`);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('3 targets: 1 not conformant (faulty: non-conformant)');
  });

  it('--json: the matrix as one JSON value on stdout', async () => {
    const { code, stdout } = await conformance(['matrix', ...files, ...names, '--json']);
    expect(code).toBe(1);
    const m = JSON.parse(stdout) as ReportMatrix;
    expect(m.targets.map((t) => [t.name, t.file, t.verdict])).toEqual([
      ['embedded', files[0], 'conformant'],
      ['strict', files[1], 'conformant'],
      ['faulty', files[2], 'non-conformant'],
    ]);
    expect(m.rows.find((r) => r.id === FAULT_RULE)?.cells.map((c) => c.status)).toEqual(['passed', 'passed', 'failed']);
    const point = m.points.find((p) => p.field === 'person_details.first_name' && p.kind === 'length' && p.operation === 'createIdentity')!;
    expect(point.differs).toBe(true);
    expect(point.cells[1]?.summary).toBe(strictSummary('person_details.first_name'));
    expect(m.breaks.some((b) => b.target === 'strict' && b.field === 'person_details.first_name' && b.kind === 'length')).toBe(true);
    expect(m.conformant).toBe(false);
  });

  it('--markdown and --html --out FILE', async () => {
    const md = await conformance(['matrix', ...files, ...names, '--markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).toMatch(/^## Conformance matrix: ❌ 1 of 3 targets not conformant$/m);
    expect(md.stdout).toMatch(/^\| ≠ `fa\.valid-accepted` \| 4\.1 \| ✅ passed \| ✅ passed \| ❌ failed: .*last_name/m);
    expect(md.stdout).toContain(strictSummary('person_details.address.address1'));
    const file = path.join(dir, 'matrix.html');
    const html = await conformance(['matrix', ...files, ...names, '--html', '--out', file]);
    expect([html.code, html.stdout, html.stderr]).toEqual([1, '', `wrote ${file}\n`]);
    const page = await readFile(file, 'utf8');
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toContain(strictSummary('person_details.first_name'));
  });

  it('exit 0 when every target is conformant; the base URLs name the columns without --name', async () => {
    const { code, stdout } = await conformance(['matrix', files[0], files[1]]);
    expect(code).toBe(0);
    expect(stdout).toContain(`  A  ${runs.embedded.target.baseUrl}  seed 1  conformant`);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('2 targets: all conformant');
  });
});

describe('conformance matrix, usage', () => {
  const usage = async (args: string[]) => {
    const { io, out, err } = testIO();
    const code = await main(['matrix', ...args], io);
    return { code, out, err };
  };

  it('--help says the formats and the exit codes', async () => {
    const { code, out } = await usage(['--help']);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/--html[\s\S]*--allow-different-seeds[\s\S]*Exit 0 when every target is conformant, 1 when any is not/);
  });

  it.each([
    [['one.json'], 'give two or more report files'],
    [['a.json', 'b.json', '--name', 'x'], 'give --name once per report, in their order: 1 names for 2 reports'],
    [['a.json', 'b.json', '--json', '--html'], 'give one of --json, --markdown and --html, not --json and --html'],
  ])('%j is a usage error, exit 2, one line', async (args, message) => {
    const { code, out, err } = await usage(args);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringContaining(`conformance matrix: ${message}`)]);
  });

  it('refuses reports of different seeds with one line, or warns on stderr with --allow-different-seeds', async () => {
    const other = path.join(dir, 'other-seed.json');
    await writeFile(other, JSON.stringify({ ...runs.strict, seed: 2 }));
    const refused = await usage([files[0], other]);
    expect(refused.code).toBe(2);
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(/^conformance matrix: the reports come from different seeds \(.*: 1, .*other-seed\.json: 2\).*--allow-different-seeds$/);
    const allowed = await usage([files[0], other, '--allow-different-seeds']);
    expect(allowed.code).toBe(0);
    expect(allowed.err).toEqual([expect.stringMatching(/^conformance matrix: warning: .*the reports come from different seeds \(1 → 2\)/)]);
  });

  it('refuses reports judged by different rules with one line', async () => {
    const other = path.join(dir, 'fewer-rules.json');
    const fewer = { ...runs.strict, rules: runs.strict.rules.filter((r) => r.id !== FAULT_RULE) };
    await writeFile(other, JSON.stringify({ ...fewer, summary: { ...fewer.summary, rules: fewer.rules.length, passed: fewer.rules.length } }));
    const { code, err } = await usage([files[0], other]);
    expect(code).toBe(2);
    expect(err).toEqual([expect.stringMatching(new RegExp(`were judged by different rules \\(only in .*: ${FAULT_RULE.replace('.', '\\.')}\\)`))]);
  });

  it('is listed by conformance --help', async () => {
    const { io, out } = testIO();
    await main(['--help'], io);
    expect(out.join('\n')).toMatch(/^ {2}matrix +put the reports of several targets side by side/m);
  });
});

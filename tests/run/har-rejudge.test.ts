/**
 * The offline re-judge of exchanges.har (src/run/har-rejudge.ts): a report forged to pass a
 * failing rule disagrees with the recorded exchanges, naming the rule and an entry; a body the HAR
 * cut judges nothing; a redacted bundle re-judges to the same statuses. That a real run's exchanges
 * give its report's statuses, for the faithful server and every fault, is in fault-runs.test.ts
 * (one run per fault, shared with the findings' kinds).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/catalogue.ts';
import type { HarEntry } from '../../src/report/files/har.ts';
import { buildBundle, reportFolderFiles } from '../../src/report/files/bundle/write-bundle.ts';
import { BODY_CUT, rejudgeDisagreement, rejudgeHar, rejudgeHarStream } from '../../src/run/har-rejudge.ts';
import { HarReader } from '../../src/report/files/har-reader.ts';
import { verifyEvidence, verifyEvidenceFile } from '../../src/run/verify-evidence.ts';
import { embeddedReportFolder } from '../report/bundle-fixture.ts';
import { forgedReport, forgedReportFolder } from './forged-report.ts';

const SEED = 7;

const harEntriesOf = (dir: string): HarEntry[] =>
  (JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;

describe('what the re-judge refuses to take on trust', () => {
  it('a failing rule edited to passed (summary and verdict consistent) disagrees, naming the rule and the entry', async () => {
    const { dir, report } = await embeddedReportFolder(SEED, 'metadata-over-pairs-accepted');
    expect(report.rules.find((r) => r.id === 'fa.metadata.over-pairs-rejected')?.status).toBe('failed');
    const entries = harEntriesOf(dir);
    const line = rejudgeDisagreement(forgedReport(report, 'fa.metadata.over-pairs-rejected'), rejudgeHar(entries));
    expect(line).toMatch(/^rule fa\.metadata\.over-pairs-rejected says passed, the recorded exchanges fail it \(entry (\d+): .+\)$/);
    // The entry named is a case of that rule, in the HAR.
    const at = Number(/entry (\d+)/.exec(line!)![1]);
    expect(entries[at]._case?.violates).toBe('fa.metadata.over-pairs-rejected');
    // A rule the report calls inconclusive may pass or go unjudged, never fail.
    const inconclusive = {
      rules: [{ ...report.rules.find((r) => r.id === 'fa.metadata.over-pairs-rejected')!, status: 'inconclusive' as const, failures: [] }],
    };
    expect(rejudgeDisagreement(inconclusive, rejudgeHar(entries))).toMatch(/says inconclusive, the recorded exchanges fail it/);
  });

  it('an entry whose body the HAR cut judges nothing: the rules of its operation are listed, not guessed', async () => {
    const { dir, report } = await embeddedReportFolder(SEED);
    const entries = harEntriesOf(dir);
    const at = entries.findIndex((e) => e._case?.operation === 'createIdentity' && e.response.status === 201 && !e._case.restore);
    expect(at).toBeGreaterThan(0);
    const cutText = entries[at].response.content.text!.slice(0, 20);
    entries[at] = {
      ...entries[at],
      response: { ...entries[at].response, content: { ...entries[at].response.content, text: cutText, comment: 'body cut to its first 20 of 900 characters' } },
    };
    const rejudged = rejudgeHar(entries);
    const ofOperation = RULES.filter((r) => r.operation === 'createIdentity').map((r) => r.id);
    expect(rejudged.notRejudged.map((r) => r.id).sort()).toEqual([...ofOperation].sort());
    expect(new Set(rejudged.notRejudged.map((r) => r.why))).toEqual(new Set([BODY_CUT]));
    expect(rejudged.leftOut).toContainEqual({ index: at, why: `${BODY_CUT} in the HAR` });
    // Those rules are neither judged nor compared; the others still are.
    expect(rejudged.rules.filter((r) => ofOperation.includes(r.id))).toEqual([]);
    expect(rejudged.rules.length).toBeGreaterThan(0);
    expect(rejudgeDisagreement(report, rejudged)).toBeUndefined();
  });

  it('an entry recorded without an answer (`_error`) is an exchange without one, as the run judged it', async () => {
    const { dir } = await embeddedReportFolder(SEED);
    const entries = harEntriesOf(dir);
    const at = entries.findIndex(
      (e) => e._case?.operation === 'updateFiatAccount' && e._case.mode === 'valid' && !e._case.restore && e.response.status === 200,
    );
    expect(rejudgeHar(entries).rules.find((r) => r.id === 'fa.answers')?.status).toBe('passed');
    entries[at] = {
      ...entries[at],
      response: { ...entries[at].response, status: 0, content: { size: 0, mimeType: 'x-unknown' } },
      _error: { kind: 'connection', message: 'socket hang up' },
    };
    const answers = rejudgeHar(entries).rules.find((r) => r.id === 'fa.answers');
    // The rule of answers fails on that entry, with the error the HAR recorded.
    expect(answers).toMatchObject({ status: 'failed', firstProblemAt: at });
    expect(answers?.problems[0].message).toMatch(/connection: socket hang up/);
  });

  it('an answer the transport cut at its cap (the HAR says what it kept) is judged as the run judged it: no JSON', async () => {
    const { dir } = await embeddedReportFolder(SEED);
    const entries = harEntriesOf(dir);
    const at = entries.findIndex((e) => e._case?.operation === 'createIdentity' && e._case.mode === 'valid' && e.response.status === 201);
    const content = entries[at].response.content;
    entries[at] = {
      ...entries[at],
      response: { ...entries[at].response, content: { ...content, comment: `the harness kept ${content.text!.length} of 300000000 bytes received` } },
    };
    const rejudged = rejudgeHar(entries);
    expect(rejudged.leftOut.map((l) => l.index)).not.toContain(at);
    // The text kept parses, but the body had no end: as in the run, it is no JSON, and a rule fails on that very entry.
    expect(rejudged.rules.filter((r) => r.status === 'failed').map((r) => r.firstProblemAt)).toContain(at);
  });

  it('a bundled HAR that is no JSON, or whose entries are no HAR entries, fails verify in one line', async () => {
    const { dir, report } = await embeddedReportFolder(SEED);
    const files = await reportFolderFiles(dir);
    for (const [text, problem] of [
      ['{"log":', /^exchanges\.har is not JSON \(/],
      ['{"log":{"entries":[{"request":{}}]}}', /^exchanges\.har cannot be re-judged \(/],
    ] as const) {
      const members = files.map((m) => (m.name === 'exchanges.har' ? { name: m.name, data: Buffer.from(text) } : m));
      const result = verifyEvidence(buildBundle(report, members, { commandLine: 'conformance run' }).bytes);
      expect(result.verified).toBe(false);
      expect(result.problem).toMatch(problem);
      expect(result.problem).not.toContain('\n');
    }
  });

  it('a forged report folder, bundled unsigned with its hashes right, fails verify; a redacted bundle re-judges to the report', async () => {
    const { dir, report } = await embeddedReportFolder(SEED, 'id-govt-id-differs');
    const forgedDir = await forgedReportFolder(dir, report, 'id.govt-id.mirrors-cip');
    const forged = JSON.parse(readFileSync(path.join(forgedDir, 'conformance.json'), 'utf8'));
    const bundle = buildBundle(forged, await reportFolderFiles(forgedDir), { commandLine: 'conformance run' });
    const result = verifyEvidence(bundle.bytes);
    expect(result).toMatchObject({ verified: false });
    expect(result.problem).toMatch(/^conformance\.json: rule id\.govt-id\.mirrors-cip says passed, the recorded exchanges fail it \(entry \d+: /);

    const redacted = buildBundle(report, await reportFolderFiles(dir), { commandLine: 'conformance run', redactPersonal: true });
    const verified = verifyEvidence(redacted.bytes);
    expect(verified.problem).toBeUndefined();
    expect(verified.rejudge?.disagreement).toBeUndefined();
    const statuses = new Map(verified.rejudge!.rules.map((r) => [r.id, r.status]));
    for (const rule of report.rules.filter((r) => r.status === 'passed' || r.status === 'failed')) expect(statuses.get(rule.id), rule.id).toBe(rule.status);
  });
});

describe('the re-judge of a HAR read as a stream (issue 33)', () => {
  it("judges a faulty run's HAR file as the re-judge of its entries in memory, the pool read from the file", async () => {
    const { dir, report } = await embeddedReportFolder(SEED, 'metadata-over-pairs-accepted');
    const file = path.join(dir, 'exchanges.har');
    const streamed = await rejudgeHarStream(() => new HarReader(file).entries());
    expect(streamed).toEqual(rejudgeHar(harEntriesOf(dir)));
    expect(streamed.rules.find((r) => r.id === 'fa.metadata.over-pairs-rejected')?.status).toBe('failed');
    expect(rejudgeDisagreement(report, streamed)).toBeUndefined();
  });
});

describe('verify of a bundle file whose HAR is too large to hold parsed (issue 33)', () => {
  /** The bundle's bytes in a file of a fresh folder. */
  const bundleFile = (bytes: Buffer): string => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'large-har-')), 'evidence.tar.gz');
    writeFileSync(file, bytes);
    return file;
  };

  it('re-judges it entry by entry from a spool file, to the statuses of the HAR held whole', async () => {
    const { dir, report } = await embeddedReportFolder(SEED, 'id-govt-id-differs');
    const bundle = buildBundle(report, await reportFolderFiles(dir), { commandLine: 'conformance run' });
    // A budget of 1 KiB: every HAR is "too large", as a long run's is against the real 24 MiB.
    const spooled = await verifyEvidenceFile(bundleFile(bundle.bytes), undefined, undefined, 1024);
    const held = verifyEvidence(bundle.bytes);
    expect(spooled.verified).toBe(true);
    expect(spooled.notes.join(' ')).not.toMatch(/not re-judged/);
    expect(spooled.rejudge?.rules.length).toBeGreaterThan(0);
    expect(spooled.rejudge?.rules).toEqual(held.rejudge?.rules);
    expect(spooled.rejudge?.rebuilt).toBe(held.rejudge?.rebuilt);
  });

  it('a forged report fails from the spool as it fails held whole, naming the rule', async () => {
    const { dir, report } = await embeddedReportFolder(SEED, 'id-govt-id-differs');
    const forgedDir = await forgedReportFolder(dir, report, 'id.govt-id.mirrors-cip');
    const forged = JSON.parse(readFileSync(path.join(forgedDir, 'conformance.json'), 'utf8'));
    const bundle = buildBundle(forged, await reportFolderFiles(forgedDir), { commandLine: 'conformance run' });
    const result = await verifyEvidenceFile(bundleFile(bundle.bytes), undefined, undefined, 1024);
    expect(result).toMatchObject({ verified: false });
    expect(result.problem).toMatch(/^conformance\.json: rule id\.govt-id\.mirrors-cip says passed, the recorded exchanges fail it \(entry \d+: /);
  });
});

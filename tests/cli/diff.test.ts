import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diff } from '../../src/cli/diff.ts';
import { main } from '../../src/cli/main.ts';
import { testIO } from './test-io.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { ConformanceReport, ReportRule } from '../../src/report/model/model.ts';
import { inconclusiveReport, legacyReport, nextReleaseReport, sampleReport, stoppedReport } from '../report/sample-report.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'conformance-diff-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function save(name: string, report: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof report === 'string' ? report : JSON.stringify(report));
  return file;
}

const setStatus = (report: ConformanceReport, id: string, status: ReportRule['status']) => {
  const rule = report.rules.find((r) => r.id === id)!;
  rule.status = status;
  if (status === 'passed') rule.failures = [];
};

describe('conformance diff', () => {
  it('exit 0 with no regression: lists newly passing and still failing per section', async () => {
    const older = sampleReport();
    const newer = sampleReport();
    setStatus(newer, 'id.dob.midnight-utc', 'passed');
    const { io, out } = testIO();
    const code = await diff([await save('a-old.json', older), await save('a-new.json', newer)], io);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/§2\.6\n\s+✓ newly passing\s+id\.dob\.midnight-utc\s+failed → passed/);
    expect(text).toMatch(/§8\n\s+still failing\s+fa\.metadata\.over-pairs-rejected\s+failed → failed\s+7 pairs accepted \(200\)/);
    expect(out.at(-1)).toBe('0 newly failing, 1 newly passing, 2 still failing, 0 added, 0 removed: no regression');
  });

  it('exit 1 when coverage is lost: a passed rule skipped now, a skipped rule failing now', async () => {
    const older = sampleReport();
    const newer = sampleReport();
    setStatus(newer, 'fa.status.enum', 'skipped');
    const skippedBefore = older.rules.find((r) => r.status === 'skipped')!;
    const failingNow = newer.rules.find((r) => r.id === skippedBefore.id)!;
    failingNow.status = 'failed';
    failingNow.failures = older.rules.find((r) => r.failures.length)!.failures;
    const { io, out } = testIO();
    expect(await diff([await save('c-old.json', older), await save('c-new.json', newer)], io)).toBe(1);
    const text = out.join('\n');
    expect(text).toMatch(/✗ not judged now\s+fa\.status\.enum\s+passed → skipped/);
    expect(text).toMatch(new RegExp(`✗ newly failing\\s+${skippedBefore.id.replace(/\./g, '\\.')}\\s+skipped → failed`));
    expect(out.at(-1)).toMatch(/1 no longer judged, .*: 2 regressions$/);
  });

  it('exit 1 when a passing rule fails now or an added rule fails; --json gives the same diff as data', async () => {
    const older = sampleReport();
    older.rules = older.rules.filter((r) => r.id !== 'id.dob.midnight-utc' && r.id !== 'fa.auth-401');
    const newer = sampleReport();
    setStatus(newer, 'fa.status.enum', 'failed');
    newer.rules = newer.rules.filter((r) => r.id !== 'id.booleans');
    const { io, out } = testIO();
    const code = await diff([await save('b-old.json', older), await save('b-new.json', newer), '--json'], io);
    expect(code).toBe(1);
    const result = JSON.parse(out.join('\n'));
    expect(result.newlyFailing.map((c: { id: string }) => c.id)).toEqual(['fa.status.enum']);
    expect(result.added.map((c: { id: string; after: string }) => [c.id, c.after])).toEqual([
      ['id.dob.midnight-utc', 'failed'],
      ['fa.auth-401', 'passed'],
    ]);
    expect(result.removed.map((c: { id: string }) => c.id)).toEqual(['id.booleans']);
    expect(result.regressions).toBe(2);
    expect(result.sections.map((s: { section: string }) => s.section)).toEqual(['1', '2.1', '2.5', '2.6', '5', '8']);
  });

  it('passed → inconclusive is a regression (exit 1); inconclusive → passed is newly passing; the verdict change is shown', async () => {
    const conformant = sampleReport();
    for (const r of conformant.rules) Object.assign(r, { status: 'passed', failures: [], blocking: false });
    conformant.summary.verdict = 'conformant';
    const inconclusive = inconclusiveReport();
    {
      const { io, out } = testIO();
      expect(await diff([await save('i-old.json', conformant), await save('i-new.json', inconclusive)], io)).toBe(1);
      const text = out.join('\n');
      expect(text).toContain('verdict: conformant → inconclusive');
      expect(text).toMatch(/§2\.6\n\s+✗ not judged now\s+id\.dob\.midnight-utc\s+passed → inconclusive\s+judged by 3 fixed and 0 random cases/);
      expect(text).toMatch(/✗ not judged now\s+id\.type-person\s+passed → inconclusive/);
      expect(out.at(-1)).toBe('0 newly failing, 0 newly passing, 0 still failing, 2 no longer judged, 0 added, 0 removed: 2 regressions');
    }
    {
      const { io, out } = testIO();
      expect(await diff([await save('i-new.json', inconclusive), await save('i-old.json', conformant), '--json'], io)).toBe(0);
      const result = JSON.parse(out.join('\n'));
      expect(result.verdict).toEqual({ before: 'inconclusive', after: 'conformant', changed: true });
      expect(result.newlyPassing.map((c: { id: string; before: string }) => [c.id, c.before])).toEqual([
        ['id.type-person', 'inconclusive'],
        ['id.dob.midnight-utc', 'inconclusive'],
      ]);
      expect(result.regressions).toBe(0);
    }
  });

  it('failed → inconclusive is shown as newly inconclusive, no regression (exit 0)', async () => {
    const older = sampleReport();
    const newer = sampleReport();
    const dob = newer.rules.find((r) => r.id === 'id.dob.midnight-utc')!;
    Object.assign(dob, { status: 'inconclusive', failures: [], reason: 'judged by 1 fixed and 0 random cases (minimum 2 and 25): most creates were refused' });
    const { io, out } = testIO();
    expect(await diff([await save('n-old.json', older), await save('n-new.json', newer)], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/\? inconclusive\s+id\.dob\.midnight-utc\s+failed → inconclusive\s+judged by 1 fixed/);
    expect(text).toContain('verdict: non-conformant, unchanged');
    expect(out.at(-1)).toBe('0 newly failing, 0 newly passing, 2 still failing, 1 newly inconclusive, 0 added, 0 removed: no regression');
  });

  it('a newer run that stopped early: says where, and a passed rule it never reached is no longer judged (exit 1)', async () => {
    const older = sampleReport();
    const newer = stoppedReport();
    newer.rules = newer.rules.filter((r) => r.id !== 'fa.status.enum');
    const { io, out } = testIO();
    expect(await diff([await save('s-old.json', older), await save('s-new.json', newer)], io)).toBe(1);
    const text = out.join('\n');
    expect(text).toMatch(
      /^new: .* error {2}\(stopped after 212 requests while judging id\.dob\.midnight-utc: the target stopped answering: connection: connect ECONNREFUSED 127\.0\.0\.1:4010\)$/m,
    );
    expect(text).toContain('verdict: non-conformant → error');
    expect(text).toMatch(/✗ not judged now\s+fa\.status\.enum\s+passed → —\s+not reached: the run stopped early/);
    expect(text).toMatch(/✗ newly failing\s+id\.valid-accepted\s+passed → failed/);
  });

  it('exit 2 with one clear line for a missing file, non-JSON, or a file that is not a report', async () => {
    const good = await save('good.json', sampleReport());
    const cases: [string, RegExp][] = [
      [path.join(dir, 'missing.json'), /cannot read .*missing\.json: ENOENT/],
      [await save('broken.json', '{"rules": ['), /broken\.json is not JSON/],
      [await save('other.json', { rules: [], hello: 1 }), /other\.json is not a valid conformance\.json report/],
      [await save('future.json', { ...sampleReport(), reportVersion: '2.0.0' }), /version 2\.0\.0 report/],
    ];
    for (const [file, message] of cases) {
      const { io, err } = testIO();
      expect(await main(['diff', good, file], io)).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/^conformance diff: /);
      expect(err[0]).toMatch(message);
    }
  });

  it('usage problems throw UsageError', async () => {
    const { io } = testIO();
    await expect(diff(['only-one.json'], io)).rejects.toBeInstanceOf(UsageError);
    await expect(diff(['a', 'b', '--bogus'], io)).rejects.toBeInstanceOf(UsageError);
  });

  it('--markdown: a table for a pull-request comment, regressions first, the verdict change and both runs; nothing on stderr for runs that match', async () => {
    const older = sampleReport();
    const newer = sampleReport();
    setStatus(newer, 'fa.status.enum', 'failed');
    newer.rules.find((r) => r.id === 'fa.status.enum')!.failures = [
      { ...older.rules.find((r) => r.failures.length)!.failures[0], message: 'status | "pending" | not allowed' },
    ];
    setStatus(newer, 'id.dob.midnight-utc', 'passed');
    newer.summary.verdict = 'non-conformant';
    const { io, out, err } = testIO();
    expect(await diff([await save('m-old.json', older), await save('m-new.json', newer), '--markdown'], io)).toBe(1);
    const md = out.join('\n');
    expect(md.split('\n')[0]).toBe('## Conformance diff: ❌ 1 regression');
    expect(md).toContain('| Change | Rule | Section | Basis | Before → after | First failure or reason |');
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Change'));
    expect(rows[0]).toMatch(
      /^\| 🔴 newly failing \| `fa\.status\.enum` \| §2\.1 \| documented \| passed → failed \| status \\\| "pending" \\\| not allowed \|$/,
    );
    expect(rows.findIndex((r) => r.includes('newly passing'))).toBeGreaterThan(0);
    expect(rows.findIndex((r) => r.includes('still failing'))).toBeGreaterThan(rows.findIndex((r) => r.includes('newly passing')));
    // Every row has the table's six cells: a pipe in a message is escaped.
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(6);
    expect(md).toContain(`- Old: \`${older.target.baseUrl}\` · seed \`${older.seed}\``);
    expect(err).toEqual([]);
  });

  it('warns on stderr (and in --json and --markdown) when the runs differ: target, seed, profile, strict mode, rule filter', async () => {
    const older = sampleReport();
    const newer = {
      ...sampleReport(),
      seed: older.seed + 1,
      profile: 'deep',
      runs: 400,
      strict: !older.strict,
      ruleFilter: ['fa.'],
      target: { ...older.target, baseUrl: 'https://sandbox.example.com', embedded: false },
    };
    const { io, err } = testIO();
    await diff([await save('w-old.json', older), await save('w-new.json', newer)], io);
    expect(err.every((l) => l.startsWith('conformance diff: warning: the reports come from different '))).toBe(true);
    expect(err.map((l) => /different ([a-z ]+) \(/.exec(l)?.[1])).toEqual(['targets', 'seeds', 'profiles', 'strict modes', 'rule filters']);
    expect(err[1]).toContain(`(${older.seed} → ${older.seed + 1})`);
    const json = testIO();
    await diff([await save('w-old.json', older), await save('w-new.json', newer), '--json'], json.io);
    expect(JSON.parse(json.out.join('\n')).warnings).toHaveLength(5);
    const md = testIO();
    await diff([await save('w-old.json', older), await save('w-new.json', newer), '--markdown'], md.io);
    expect(md.out.join('\n').match(/^> ⚠️ the reports come from different/gm)).toHaveLength(5);
  });

  it('two runs of the embedded server differ by their reading or fault, not by their port', async () => {
    const older = { ...sampleReport(), target: { baseUrl: 'http://127.0.0.1:40001', embedded: true, reading: { placement: 'nested' } } };
    const samePort = { ...older, target: { ...older.target, baseUrl: 'http://127.0.0.1:40002' } };
    const faulty = { ...older, target: { ...older.target, reading: { placement: 'nested', fault: 'fa-status-lowercase' } } };
    const same = testIO();
    await diff([await save('e-old.json', older), await save('e-port.json', samePort)], same.io);
    expect(same.err).toEqual([]);
    const other = testIO();
    await diff([await save('e-old.json', older), await save('e-fault.json', faulty)], other.io);
    expect(other.err).toEqual([
      'conformance diff: warning: the reports come from different embedded servers (fault=none → fault=fa-status-lowercase): a changed rule may be the other reading or fault, not a change of the target',
    ]);
  });

  it('lists the observed contract changes before the closing line, and they leave the exit at 0', async () => {
    const { io, out } = testIO();
    expect(await diff([await save('oc-old.json', sampleReport()), await save('oc-new.json', nextReleaseReport())], io)).toBe(0);
    const at = out.indexOf('observed contract changes (open points: information, not regressions)');
    expect(at).toBeGreaterThan(0);
    expect(out.slice(at + 1, at + 9)).toEqual([
      '  + updateFiatAccount wire.bank_name, length: refuses over 35 characters (accepted up to 35) (not tried before)',
      '  ~ createIdentity person_details.address.address1, length: refuses over 35 characters (accepted up to 35) → accepted up to 200 characters',
      '      longest accepted 35 → 200; shortest refused 36 → none; 36 characters now accepted (was refused); 200 characters now accepted (was refused)',
      '  ~ createIdentity person_details.address.country, code: refused XKX; accepted GBR, DEU → refused XKX, GBR; accepted DEU',
      '      GBR now refused (was accepted; 400: country must be one of DEU | FRA)',
      '  ~ createIdentity person_details.date_of_birth, date: refused 1899-12-31; accepted 1930-01-01 to 2005-06-30 → refused 1899-12-31; accepted 1930-01-01 to 2005-06-30',
      '      1899-12-31 refused with 422 (was 400)',
      '  - createIdentity person_details.last_name, alphabet: accepted accented latin (é, ñ, ß), cjk, rtl (not tried now)',
    ]);
    expect(out.at(-1)).toBe('0 newly failing, 0 newly passing, 3 still failing, 0 added, 0 removed: no regression');
  });

  it('a rule regression with contract changes: exit 1 for the rule alone; --json and --markdown carry both', async () => {
    const newer = nextReleaseReport();
    setStatus(newer, 'fa.status.enum', 'failed');
    const files = [await save('ocr-old.json', sampleReport()), await save('ocr-new.json', newer)];
    const json = testIO();
    expect(await diff([...files, '--json'], json.io)).toBe(1);
    const result = JSON.parse(json.out.join('\n'));
    expect(result.regressions).toBe(1);
    expect(result.observedContract.recorded).toEqual({ old: true, new: true });
    expect(result.observedContract.changes.map((c: { change: string; field: string }) => `${c.change} ${c.field}`)).toEqual([
      'appeared wire.bank_name',
      'changed person_details.address.address1',
      'changed person_details.address.country',
      'changed person_details.date_of_birth',
      'disappeared person_details.last_name',
    ]);
    const md = testIO();
    expect(await diff([...files, '--markdown'], md.io)).toBe(1);
    const text = md.out.join('\n');
    expect(text.split('\n')[0]).toBe('## Conformance diff: ❌ 1 regression');
    expect(text.indexOf('### Observed contract changes')).toBeGreaterThan(text.indexOf('1 newly failing'));
    expect(text).toContain(
      '| 🔀 changed | `person_details.address.country` (createIdentity), code | refused XKX; accepted GBR, DEU → refused XKX, GBR; accepted DEU | GBR now refused (was accepted; 400: country must be one of DEU \\| FRA) |',
    );
    expect(text).toContain('| 🆕 appeared | `wire.bank_name` (updateFiatAccount), length | — → refuses over 35 characters (accepted up to 35) |  |');
    const rows = text.split('\n').filter((l) => /^\| (🆕|🔀|➖) /.test(l));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(4);
  });

  it('the same contract: one line in Markdown, nothing in the text; a report before 1.7.0 gets a note', async () => {
    const same = [await save('ocs-old.json', sampleReport()), await save('ocs-new.json', sampleReport())];
    const md = testIO();
    await diff([...same, '--markdown'], md.io);
    expect(md.out.join('\n')).toContain('Observed contract (open points): unchanged.');
    expect(md.out.join('\n')).not.toContain('### Observed contract changes');
    const text = testIO();
    await diff(same, text.io);
    expect(text.out.join('\n')).not.toContain('observed contract');
    const legacy = testIO();
    expect(await diff([await save('ocl-old.json', legacyReport()), await save('ocl-new.json', sampleReport())], legacy.io)).toBe(0);
    const lines = legacy.out.join('\n');
    expect(lines).toMatch(/^ {2}note: the old report \(version 1\.6\.0\) records no observed contract: its run tried no open point/m);
    expect(lines.match(/^ {2}\+ /gm)).toHaveLength(sampleReport().observedContract!.limits.length);
  });

  it('--json and --markdown together are a usage error', async () => {
    const { io } = testIO();
    const file = await save('u.json', sampleReport());
    await expect(diff([file, file, '--json', '--markdown'], io)).rejects.toBeInstanceOf(UsageError);
  });
});

/**
 * The harness against hostile targets (issue 9): for each kind of broken answer, the real binary
 * must not crash, must write every report format (conformance.json valid against its schema), end
 * with the documented exit code and put the blame on a rule or on the run, never say conformant.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformance, readReport, reportDir, type BinaryResult, targetFlags } from '../cli/binary.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { startHostileTarget, type HostileOptions, type HostileTarget, type Misbehaviour } from './hostile-target.ts';

const REPORT_FILES = ['conformance.json', 'junit.xml', 'report.html', 'summary.md', 'exchanges.har'];

/** One quick run of the real binary against a fresh hostile target (its own: the tests run concurrently). */
async function runAgainst(
  options: HostileOptions,
  extra: string[] = [],
): Promise<{ result: BinaryResult; report: ConformanceReport; dir: string; target: HostileTarget }> {
  const target = await startHostileTarget(options);
  try {
    const dir = reportDir();
    const result = await conformance(['run', ...targetFlags(target, target.accountIds), '--profile', 'quick', '--seed', '7', '--report-dir', dir, ...extra]);
    return { result, report: readReport(dir), dir, target };
  } finally {
    await target.close();
  }
}

/** No stack trace, every format written, the misbehaviour happened, and the run is not conformant. */
function expectSurvivedAndNotConformant({ result, dir, target, report }: Awaited<ReturnType<typeof runAgainst>>): void {
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const file of REPORT_FILES) expect(existsSync(path.join(dir, file)), file).toBe(true);
  expect(target.misbehaved).toBeGreaterThan(0);
  expect(report.summary.verdict).not.toBe('conformant');
  expect(result.code).not.toBe(0);
}

const failedRules = (report: ConformanceReport) => report.rules.filter((r) => r.status === 'failed').map((r) => r.id);

/** Answers whose body is broken: a documented rule about the body fails (exit 1). */
const BODY_FAULTS: { misbehaviour: Misbehaviour; blamed: string[] }[] = [
  { misbehaviour: 'not-json', blamed: ['fa.content-type', 'id.content-type'] },
  { misbehaviour: 'truncated-json', blamed: ['fa.content-type', 'id.content-type'] },
  { misbehaviour: 'invalid-utf8', blamed: ['fa.content-type', 'id.content-type'] },
  { misbehaviour: 'deep-json', blamed: ['fa.response.schema', 'id.response.schema'] },
  { misbehaviour: 'huge-garbage', blamed: ['fa.content-type', 'id.content-type'] },
  { misbehaviour: 'huge-json', blamed: ['fa.content-type', 'id.content-type'] },
  { misbehaviour: 'redirect-self', blamed: ['fa.valid-accepted', 'id.valid-accepted'] },
  { misbehaviour: 'redirect-elsewhere', blamed: ['fa.valid-accepted', 'id.valid-accepted'] },
  { misbehaviour: 'no-content-with-body', blamed: ['fa.content-type', 'id.content-type', 'fa.valid-accepted', 'id.valid-accepted'] },
];

/** Answers that break HTTP itself, on one request in seven: the run says so and cannot be conformant. */
const FRAMING_FAULTS: Misbehaviour[] = ['huge-header', 'reset-mid-body', 'duplicate-content-length', 'hang'];

describe('hostile targets', { timeout: 180_000 }, () => {
  it.concurrent.each(BODY_FAULTS)('$misbehaviour on some requests: a documented body rule fails, exit 1', async ({ misbehaviour, blamed }) => {
    // One request in seven; one in 25 for the 10 MB bodies, which take a while to send.
    const every = misbehaviour.startsWith('huge') ? 25 : 7;
    const run = await runAgainst({ misbehaviour, when: (n) => n % every === 3 });
    expectSurvivedAndNotConformant(run);
    expect(run.result.code).toBe(1);
    expect(failedRules(run.report).filter((id) => blamed.includes(id))).not.toEqual([]);
  });

  it.concurrent.each(FRAMING_FAULTS)('%s on one request in seven: the answers rules fail and the run is not conformant', async (misbehaviour) => {
    const run = await runAgainst({ misbehaviour, when: (n) => n % 7 === 3 }, ['--timeout', '500']);
    expectSurvivedAndNotConformant(run);
    // 5 instead of 4 when a broken answer also hit the restore and left an account changed (docs/design.md 5.3).
    expect([1, 4, 5]).toContain(run.result.code);
    if (run.result.code === 5) expect(run.report.restore?.accounts.some((a) => a.outcome !== 'restored' && a.outcome !== 'unchanged')).toBe(true);
    expect(failedRules(run.report).some((id) => id.endsWith('.answers'))).toBe(true);
  });

  it('a 100 MB answer is cut, judged and the run goes on', async () => {
    // One answer, to an update or a create with a body from the 20th request on: the answer to
    // another method or to an empty body is no FiatAccount or Identity, and no body rule judges it.
    let chosen = false;
    const when = (n: number, { method, bodyBytes }: { method: string; bodyBytes: number }) => {
      if (chosen || n < 20 || !['PUT', 'POST'].includes(method) || bodyBytes === 0) return false;
      chosen = true;
      return true;
    };
    const run = await runAgainst({ misbehaviour: 'huge-json', when, size: 100 * 1024 * 1024 });
    expectSurvivedAndNotConformant(run);
    expect(run.result.code).toBe(1);
    const cut = run.report.rules.flatMap((r) => r.failures).find((f) => f.response?.truncated);
    expect(cut?.response?.truncated?.receivedBytes).toBeGreaterThan(1024 * 1024);
    // The run did not stop at the huge answer: it sent the whole quick profile.
    expect(run.report.summary.requests).toBeGreaterThan(200);
  });

  it('a 103 Early Hints before each answer is no fault: conformant', async () => {
    const { result, report, target } = await runAgainst({ misbehaviour: 'informational-first', when: () => true });
    expect(target.misbehaved).toBeGreaterThan(0);
    expect(result.stderr).toBe('');
    expect(report.summary.verdict).toBe('conformant');
    expect(result.code).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { createConsoleReporter, endLines, failFastRestLine } from '../../../src/report/terminal/console.ts';
import { RULES } from '../../../src/core/catalogue.ts';
import type { ReportEvent } from '../../../src/report/model/report-events.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import { FIAT_ACCOUNT_ID, REFUSAL_WORDS, SHORTFALL, inconclusiveReport, sampleExchanges, sampleReport, stoppedReport } from '../sample-report.ts';

/** The sample's passes: every rule but its 3 failures and 1 skip (the catalogue may grow). */
const PASSED = RULES.length - 4;

/** The events a runner would emit for a report. */
function events(report: ConformanceReport = sampleReport()): ReportEvent[] {
  const exchanges = sampleExchanges();
  const list: ReportEvent[] = [
    {
      type: 'run-start',
      baseUrl: report.target.baseUrl,
      seed: report.seed,
      profile: report.profile,
      rules: report.rules.length,
      fiatAccountIds: [FIAT_ACCOUNT_ID],
    },
  ];
  for (const rule of report.rules) {
    list.push({ type: 'rule-start', rule: RULES.find((r) => r.id === rule.id)! });
    for (const exchange of exchanges) list.push({ type: 'exchange', exchange });
    list.push({ type: 'rule-end', rule });
  }
  list.push({ type: 'run-end', report });
  return list;
}

async function play(isTTY: boolean, report?: ConformanceReport): Promise<string[]> {
  const lines: string[] = [];
  const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY });
  for (const event of events(report)) await listener(event);
  return lines;
}

/** The over-pairs failure's line: its message, then what the target's 200 answered on the rule's field (metadata, cut). */
const OVER_PAIRS = /^ {2}✗ fa\.metadata\.over-pairs-rejected {2}7 pairs accepted \(200\) — target said: "metadata: \{"k1":"<script>.*…"$/;

describe('console reporter', () => {
  it('prints every figure from the finished report: a line per failed rule, the table, the seed, and the counts last', async () => {
    const lines = await play(false);
    expect(lines.some((l) => l.includes('\u001b'))).toBe(false);
    expect(lines[0]).toBe(`running ${RULES.length} rules against http://127.0.0.1:4010 (seed 424242, profile standard)`);
    // Passes are in the table only: no line of their own.
    expect(lines).not.toContain('  ✓ fa.status.enum  (24 cases)');
    expect(lines.filter((l) => OVER_PAIRS.test(l))).toHaveLength(1);
    // A failure without an answer (a timeout) has no words of the target.
    expect(lines).toContain('  ✗ id.answers  no answer within 10000 ms (timeout)');
    const table = lines.findIndex((l) => /^rule\s+section\s+basis\s+status\s+cases$/.test(l));
    expect(table).toBeGreaterThan(lines.findIndex((l) => OVER_PAIRS.test(l)));
    expect(lines[table + 2]).toMatch(/^fa\.valid-accepted\s+4\.1\s+documented\s+✓ passed\s+24$/);
    expect(lines.some((l) => /^id\.ref-id\.concurrent-duplicate\s+\S+\s+\S+\s+- skipped\s+\d+$/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('--seed 424242'))).toBe(true);
    expect(lines.at(-1)).toBe(`${PASSED} passed, 3 failed, 1 skipped`);
  });

  it("prints nothing while the run goes (progress is the status line's) and no `running` line when a status line shows it", async () => {
    const lines = await play(true);
    const end = lines.findIndex((l) => /^rule\s+section/.test(l));
    expect(lines.some((l) => l.startsWith('running '))).toBe(false);
    expect(lines.some((l) => l.includes('\u001b'))).toBe(false);
    expect(lines.some((l) => OVER_PAIRS.test(l))).toBe(true);
    expect(end).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`${PASSED} passed, 3 failed, 1 skipped`);
  });

  it('--quiet: the verdict line alone', async () => {
    const lines: string[] = [];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false, quiet: true });
    const report = sampleReport();
    for (const event of events(report)) await listener(event);
    expect(lines).toEqual([`verdict: non-conformant (${report.summary.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s)`]);
  });

  it('omits the skipped count when nothing was skipped, and never prints an Authorization value', async () => {
    const lines: string[] = [];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false });
    const report = sampleReport();
    report.rules = report.rules.filter((r) => r.status !== 'skipped');
    report.rules[0] = {
      ...report.rules[0],
      status: 'failed',
      failures: [{ ...report.rules.find((r) => r.failures.length)!.failures[0], message: 'echoed Authorization: Bearer live-token-1' }],
    };
    await listener({ type: 'rule-end', rule: report.rules[0] });
    await listener({ type: 'run-end', report });
    expect(lines.join('\n')).not.toContain('live-token-1');
    expect(lines.at(-1)).toBe(`${PASSED - 1} passed, 4 failed`);
  });

  it("scrubs the run's credentials, issued during the run, from a failure message that quotes an echoed token", async () => {
    const lines: string[] = [];
    const secrets = ['first-token-0123456789'];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false, secrets: () => secrets });
    const rule = sampleReport().rules.find((r) => r.failures.length)!;
    secrets.push('later-token-9876543210'); // a token renewed mid-run
    const report = sampleReport();
    report.rules = report.rules.map((r) =>
      r.id === rule.id ? { ...rule, failures: [{ ...rule.failures[0], message: 'first_name returned "later-token-9876543210"' }] } : r,
    );
    await listener({ type: 'run-end', report });
    expect(lines.join('\n')).not.toContain('later-token-9876543210');
    expect(lines.join('\n')).toContain('first_name returned');
  });

  it('marks an inconclusive rule "?", with its figures, the reason on the line under it, and counts it last', async () => {
    const lines = await play(false, inconclusiveReport());
    const at = lines.indexOf('  ? id.dob.midnight-utc  inconclusive: 3 fixed + 0 random cases, minimum 2 + 25');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(`      ${SHORTFALL}`);
    expect(lines).toContain('  ? id.type-person  inconclusive: 1 fixed + 0 random cases, minimum 1 + 5 (does not block the verdict)');
    expect(lines.some((l) => /^id\.dob\.midnight-utc\s+2\.6\s+documented\s+\? inconclusive\s+3$/.test(l))).toBe(true);
    expect(lines).toContain('verdict: inconclusive (301 requests in 12.3 s)');
    expect(lines.at(-1)).toBe(`${RULES.length - 2} passed, 0 failed, 2 inconclusive`);
    expect(lines.at(-1)).toMatch(/^\d+ passed, \d+ failed/);
  });

  it('on a TTY keeps an inconclusive rule and its reason on screen', async () => {
    const lines = await play(true, inconclusiveReport());
    const at = lines.findIndex((l) => l.endsWith('? id.dob.midnight-utc  inconclusive: 3 fixed + 0 random cases, minimum 2 + 25'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(`      ${SHORTFALL}`);
  });

  it('ends a failure line with what the target said, and says where a stopped run stopped and its exit', async () => {
    const lines = await play(false, stoppedReport());
    expect(lines).toContain(
      `  ✗ id.valid-accepted  person with a Hebrew first name: a valid request was not accepted (HTTP 422) — target said: "${REFUSAL_WORDS}"`,
    );
    const stop = lines.indexOf(
      'stopped after 212 requests while judging id.dob.midnight-utc: the target stopped answering: connection: connect ECONNREFUSED 127.0.0.1:4010; partial report, exit 3',
    );
    expect(stop).toBeGreaterThan(lines.findIndex((l) => l.startsWith('verdict: error')));
    expect(lines.at(-1)).toBe(`${RULES.length - 2} passed, 1 failed, 1 inconclusive`);
  });

  it('never prints a secret the target echoed in its answer, even cut at the width', async () => {
    const token = 'tok_live_5f2a9c7e1b3d9a8b7c6d5e4f';
    const report = stoppedReport();
    const rule = report.rules.find((r) => r.id === 'id.valid-accepted')!;
    const response = rule.failures[0].response!;
    response.body = { detail: `${'x'.repeat(105)} token ${token} refused` };
    response.rawBody = JSON.stringify(response.body);
    const lines: string[] = [];
    const listener = createConsoleReporter({ out: (line) => lines.push(line), isTTY: false, secrets: () => [token] });
    await listener({ type: 'run-end', report });
    const line = lines.find((l) => l.includes('id.valid-accepted  '))!;
    expect(line).toContain('target said: "xxx');
    expect(lines.join('\n')).not.toContain('tok_');
    expect(line).toContain('[REDACT');
  });
});

describe('a run --fail-fast ended', () => {
  it('prints its failure and one line for the rules it never judged, not one line each', () => {
    const report = inconclusiveReport();
    const failing = sampleReport().rules.find((r) => r.status === 'failed')!;
    report.rules = report.rules.map((r) =>
      r.id === failing.id ? failing : r.status === 'passed' ? { ...r, status: 'inconclusive', blocking: true, reason: SHORTFALL } : r,
    );
    report.stopped = { kind: 'fail-fast', message: `${failing.id} failed, and --fail-fast ends the run`, requests: 40, rule: failing.id };
    const notJudged = report.rules.filter((r) => r.status === 'inconclusive').length;
    expect(notJudged).toBeGreaterThan(10);
    const lines = endLines(report);
    expect(lines.filter((l) => l.startsWith(`  ✗ ${failing.id}`))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('not judged: --fail-fast ended the run'))).toEqual([failFastRestLine(notJudged)]);
    // Neither an inconclusive line nor a table row per rule it never reached.
    expect(lines.filter((l) => /inconclusive/.test(l) && !/verdict|passed, /.test(l))).toEqual([]);
  });
});

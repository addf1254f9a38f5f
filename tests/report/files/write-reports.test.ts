import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeReports, REPORT_FILES } from '../../../src/report/files/write-reports.ts';
import { renderJunit } from '../../../src/report/files/junit.ts';
import { renderMarkdownSummary } from '../../../src/report/files/markdown-summary.ts';
import { buildHar } from '../../../src/report/files/har.ts';
import { registry } from '../../../src/schema/registry.ts';
import type { ConformanceReport } from '../../../src/report/model/model.ts';
import type { Exchange } from '../../../src/core/exchange.ts';
import { RULES } from '../../../src/core/catalogue.ts';
import { HOSTILE, REFUSAL_WORDS, SHORTFALL, inconclusiveReport, sampleExchanges, sampleReport, stoppedReport } from '../sample-report.ts';
import { xmlProblems } from '../xml-well-formed.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'conformance-reports-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8');

describe('writeReports', () => {
  it('writes the five files, and conformance.json validates against its schema', async () => {
    const dir = path.join(root, 'all', 'nested');
    const { written, errors } = await writeReports(dir, sampleReport(), sampleExchanges(), { secrets: [] });
    expect(errors).toEqual([]);
    expect(written.map((p) => path.basename(p)).sort()).toEqual(Object.values(REPORT_FILES).sort());
    const json = JSON.parse(await read(dir, REPORT_FILES.json)) as ConformanceReport;
    expect(registry().validate('conformance-report', json)).toEqual([]);
    expect(json).toEqual(sampleReport());
  });

  it('the schema rejects a report with credentials in the target or a missing field', () => {
    const withCredentials = sampleReport();
    withCredentials.target.baseUrl = 'https://user:pass@api.example.com';
    expect(registry().validate('conformance-report', withCredentials)).not.toEqual([]);
    const { seed: _seed, ...withoutSeed } = sampleReport();
    expect(
      registry()
        .validate('conformance-report', withoutSeed)
        .map((e) => e.message)
        .join(),
    ).toMatch(/seed/);
  });

  it('writes every file for a response nested 5,000 levels deep', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'deep-'));
    const rawBody = '['.repeat(5000) + ']'.repeat(5000);
    const exchanges = sampleExchanges();
    exchanges[0] = { ...exchanges[0], response: { status: 200, headers: {}, rawBody, json: true, body: JSON.parse(rawBody) } };
    const report = sampleReport();
    report.rules.find((r) => r.failures.length)!.failures[0].response = exchanges[0].response;
    const { written, errors } = await writeReports(dir, report, exchanges, { secrets: [] });
    expect(errors).toEqual([]);
    expect(written).toHaveLength(6);
  });

  it('a writer that throws is recorded and the others still write', async () => {
    const dir = path.join(root, 'broken-har');
    const broken = [...sampleExchanges(), { request: null } as unknown as Exchange];
    const { written, errors } = await writeReports(dir, sampleReport(), broken, { secrets: [] });
    expect(errors.map((e) => e.writer)).toEqual(['har']);
    expect(written).toHaveLength(5);
    expect(await readdir(dir)).not.toContain(REPORT_FILES.har);
  });

  it('appends the markdown summary to the step summary file', async () => {
    const dir = path.join(root, 'step');
    const stepSummaryPath = path.join(root, 'step-summary.md');
    await writeFile(stepSummaryPath, '# earlier step\n');
    const { written } = await writeReports(dir, sampleReport(), [], { secrets: [], stepSummaryPath });
    expect(written).toContain(stepSummaryPath);
    const text = await readFile(stepSummaryPath, 'utf8');
    expect(text.startsWith('# earlier step\n')).toBe(true);
    expect(text).toContain('Non-conformant');
  });
});

describe('redaction across every format', () => {
  const TOKEN = 'tok_live_5f2a9c7e1b3d';
  const SECRET = 'cs_9d8c7b6a<&>"';
  const ISSUED = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjbGllbnQifQ.c2lnbmF0dXJl';

  /** A report and exchanges that leaked every credential in headers, bodies and messages. */
  function leakyInputs(): { report: ConformanceReport; exchanges: Exchange[] } {
    const report = sampleReport();
    const failure = report.rules.find((r) => r.failures.length)!.failures[0];
    failure.message = `server echoed ${TOKEN} and ${SECRET}`;
    failure.request.headers = { ...failure.request.headers, Authorization: `Bearer ${ISSUED}`, Cookie: 'session=s3ss10n' };
    failure.request.body = { note: TOKEN, client_secret: SECRET };
    failure.curl = `curl -H 'Authorization: Bearer ${TOKEN}' ${report.target.baseUrl}`;
    failure.response = {
      status: 200,
      headers: { 'set-cookie': 'sid=abc123' },
      rawBody: `{"access_token":"${ISSUED}","echo":"${TOKEN}"}`,
      json: true,
      body: { access_token: ISSUED, echo: TOKEN },
    };
    report.rules.find((r) => r.status === 'skipped')!.reason = `token ${TOKEN} refused`;
    // A target that answers the token as an identity id: the ledger file is redacted too.
    report.createdIdentities = [{ id: `id-${TOKEN}`, runTag: 'conformance-1-x' }];
    const exchanges = sampleExchanges();
    exchanges[0].request = {
      ...exchanges[0].request,
      headers: { authorization: `Bearer ${TOKEN}` },
      rawBody: `grant_type=client_credentials&client_secret=${encodeURIComponent(SECRET)}`,
    };
    exchanges[1].response = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      rawBody: `{"access_token":"${ISSUED}","token_type":"bearer"}`,
      json: true,
    };
    exchanges[2].error = { kind: 'other', message: `refused Bearer ${ISSUED}` };
    return { report, exchanges };
  }

  it('no output file contains the token, the client secret, an issued token or a header value', async () => {
    const dir = path.join(root, 'leaky');
    const stepSummaryPath = path.join(root, 'leaky-step.md');
    const { report, exchanges } = leakyInputs();
    const { written, errors } = await writeReports(dir, report, exchanges, { secrets: [TOKEN, SECRET, ISSUED], stepSummaryPath });
    expect(errors).toEqual([]);
    expect(written).toHaveLength(7);
    const escapedSecret = SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const file of written) {
      const text = await readFile(file, 'utf8');
      for (const leak of [TOKEN, SECRET, ISSUED, 'cs_9d8c7b6a', escapedSecret, encodeURIComponent(SECRET), 's3ss10n', 'sid=abc123']) {
        expect(text, `${path.basename(file)} leaks ${leak}`).not.toContain(leak);
      }
      expect(text).toContain('[REDACTED]');
    }
    // The redacted report is still a valid report.
    expect(registry().validate('conformance-report', JSON.parse(await read(dir, REPORT_FILES.json)))).toEqual([]);
  });
});

describe('junit.xml', () => {
  const xml = renderJunit(sampleReport());
  const hostile = sampleReport();
  hostile.rules.find((r) => r.status === 'failed')!.failures[0].message = Object.values(HOSTILE).join(' ');
  const hostileXml = renderJunit(hostile);

  it('is well-formed XML 1.0 despite control characters and markup in the payloads', () => {
    expect(xmlProblems(xml)).toEqual([]);
    expect(xmlProblems(hostileXml)).toEqual([]);
    expect(hostileXml).not.toMatch(/[\u0000\u0007\u001b]/);
    expect(hostileXml).toContain('bell\\u0007nul\\u0000esc\\u001b');
    expect(hostileXml).toContain(HOSTILE.emoji);
    expect(hostileXml).toContain(HOSTILE.rtl);
    expect(hostileXml).toContain(HOSTILE.combining);
    expect(hostileXml).toContain('&lt;script&gt;');
    expect(hostileXml).not.toContain('<script>');
  });

  it('has one testcase per rule with counts, failures with message and curl, skipped rules', () => {
    const report = sampleReport();
    expect(xml.match(/<testcase /g)).toHaveLength(report.rules.length);
    // id.answers is a convention rule: outside --strict its failure does not fail the run, but it
    // is a failure all the same, red on a dashboard, its type saying it is fatal only with --strict.
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${report.rules.length}" failures="3" errors="0" time="12.345"`));
    expect(xml).toMatch(
      /<failure message="convention rule failed \(fatal only with --strict\): no answer within 10000 ms[^"]*" type="convention §1, fatal only with --strict">/,
    );
    expect(xml).not.toMatch(/<skipped message="convention rule failed/);
    const strictXml = renderJunit(sampleReport({ strict: true }));
    expect(strictXml).toMatch(/<testsuites [^>]*failures="3" errors="0"/);
    expect(strictXml).toMatch(/<failure message="no answer within 10000 ms[^"]*" type="convention §1">/);
    expect(xml).toContain('<testcase classname="updateFiatAccount" name="fa.metadata.over-pairs-rejected Metadata with 7 or more pairs is rejected"');
    expect(xml).toMatch(
      /<failure message="7 pairs accepted \(200\) — target said: &quot;metadata: \{&quot;k1&quot;:&quot;&lt;script&gt;[^"]*…&quot;" type="documented §8">/,
    );
    expect(xml).toContain('reproduce: curl -sS -X PUT');
    expect(xml).toMatch(/<skipped message="the profile runs no concurrent scenario"\/>/);
    expect(xml).not.toContain('<script>');
  });
});

describe('summary.md', () => {
  it('gives the verdict, counts, a table of failed rules and the re-run command', () => {
    const md = renderMarkdownSummary(sampleReport());
    expect(md).toMatch(/Non-conformant/);
    expect(md).toContain(`**${RULES.length - 4} passed**, **3 failed**, 1 skipped`);
    expect(md).not.toContain('inconclusive');
    // The target's answer follows the message, its markup neutralised.
    expect(md).toMatch(
      /\| `fa\.metadata\.over-pairs-rejected` \| §8 \| documented \| 7 pairs accepted \(200\) — target said: "metadata: \{"k1":"&lt;script&gt;[^|\n]*…" \|/,
    );
    expect(md).toContain('| `id.answers` | §1 | convention | no answer within 10000 ms (timeout) |');
    expect(md).toContain('npx conformance run --base-url http://127.0.0.1:4010 --seed 424242 --profile standard');
    // Short: the observed contract's section (its own test bounds it) aside.
    const contract = md.slice(md.indexOf('### Observed contract'), md.indexOf('undocumented response field'));
    expect(contract.split('\n').length).toBeLessThanOrEqual(10);
    expect(md.replace(contract, '').split('\n').length).toBeLessThan(30);
  });
});

describe("1.3.0: inconclusive rules, a stopped run, the target's words", () => {
  it('the schema takes 1.3.0 reports (inconclusive, coverage, stopped, new auth kinds) and still takes a 1.2.0 one', () => {
    expect(registry().validate('conformance-report', inconclusiveReport())).toEqual([]);
    expect(registry().validate('conformance-report', stoppedReport())).toEqual([]);
    const withAuth = stoppedReport();
    const failure = withAuth.rules.find((r) => r.failures.length)!.failures[0];
    for (const auth of ['none', 'invalid', 'empty', 'wrong-scheme'] as const) {
      failure.case = { ...failure.case, auth, mode: 'duplicate' };
      expect(registry().validate('conformance-report', withAuth)).toEqual([]);
    }
    // A 1.2.0 report: no coverage, no summary.inconclusive, no stopped, no observed contract.
    const old = sampleReport();
    old.reportVersion = '1.2.0';
    delete old.summary.inconclusive;
    delete old.summary.openCases;
    delete old.observedContract;
    for (const r of old.rules) delete r.coverage;
    expect(registry().validate('conformance-report', old)).toEqual([]);
  });

  it('the schema still rejects what is not a report: an unknown status, a stop without a message, a coverage without its minimum', () => {
    const status = inconclusiveReport();
    (status.rules[0] as { status: string }).status = 'maybe';
    expect(registry().validate('conformance-report', status)).not.toEqual([]);
    const stop = stoppedReport();
    delete (stop.stopped as { message?: string }).message;
    expect(registry().validate('conformance-report', stop)).not.toEqual([]);
    const coverage = inconclusiveReport();
    delete (coverage.rules[0].coverage as { minimum?: unknown }).minimum;
    expect(registry().validate('conformance-report', coverage)).not.toEqual([]);
    const auth = stoppedReport();
    auth.rules.find((r) => r.failures.length)!.failures[0].case.auth = 'stolen' as never;
    expect(registry().validate('conformance-report', auth)).not.toEqual([]);
  });

  it('junit.xml: a blocking inconclusive rule is an error of type inconclusive, a non-blocking one is skipped', () => {
    const xml = renderJunit(inconclusiveReport());
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${RULES.length}" failures="0" errors="1"`));
    expect(xml.match(/<skipped /g)).toHaveLength(1);
    const dob = xml.slice(xml.indexOf('name="id.dob.midnight-utc '), xml.indexOf('</testcase>', xml.indexOf('name="id.dob.midnight-utc ')));
    expect(dob).toContain(`<error message="${SHORTFALL}" type="inconclusive">`);
    expect(dob).toContain('coverage: 3 fixed + 0 random cases, minimum 2 + 25, 3 distinct inputs');
    const person = xml.slice(xml.indexOf('name="id.type-person '), xml.indexOf('</testcase>', xml.indexOf('name="id.type-person ')));
    expect(person).toMatch(/<skipped message="inconclusive \(does not block the verdict\): judged by 1 fixed and 0 random cases/);
    expect(person).not.toContain('<error');
    // Under --strict the convention rule blocks too.
    const strictXml = renderJunit(inconclusiveReport({ strict: true }));
    expect(strictXml).toMatch(/<testsuites [^>]*failures="0" errors="2"/);
    expect(strictXml).not.toContain('<skipped ');
  });

  it('junit.xml: a failure carries what the target said; a stopped run says where, in a property and system-out', () => {
    const xml = renderJunit(stoppedReport());
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toContain(
      `<failure message="person with a Hebrew first name: a valid request was not accepted (HTTP 422) — target said: &quot;${REFUSAL_WORDS}&quot;"`,
    );
    expect(xml).toContain(`target said: ${REFUSAL_WORDS}`);
    const stopped =
      'stopped after 212 requests while judging id.dob.midnight-utc: the target stopped answering: connection: connect ECONNREFUSED 127.0.0.1:4010; partial report, exit 3';
    expect(xml).toContain(`<property name="stopped" value="${stopped}"/>`);
    expect(xml).toContain(`<system-out>${stopped}</system-out>`);
    expect(xml).toContain('<property name="verdict" value="error"/>');
    expect(renderJunit(sampleReport())).not.toContain('name="stopped"');
  });

  it('summary.md: the inconclusive verdict, the count, and a section listing each inconclusive rule with its reason', () => {
    const md = renderMarkdownSummary(inconclusiveReport());
    expect(md).toContain('## Conformance: ❔ **Inconclusive**');
    expect(md).toContain(`**${RULES.length - 2} passed**, **0 failed**, **2 inconclusive**, 0 skipped`);
    expect(md).toContain('### Inconclusive');
    expect(md).toContain(`- \`id.dob.midnight-utc\` §2.6 documented (3 fixed + 0 random cases, minimum 2 + 25): ${SHORTFALL}\n`);
    expect(md).toMatch(/- `id\.type-person` §2\.5 convention \(1 fixed \+ 0 random cases, minimum 1 \+ 5\): .* Does not block the verdict\./);
    expect(md).not.toContain('| Rule |');
    expect(renderMarkdownSummary(sampleReport())).not.toContain('### Inconclusive');
  });

  it('summary.md: a stopped run says where it stopped and its exit; the failure row quotes the target', () => {
    const md = renderMarkdownSummary(stoppedReport());
    expect(md).toContain('⚠️ **Error**');
    expect(md).toContain(
      '⛔ **Stopped**: stopped after 212 requests while judging id.dob.midnight-utc: the target stopped answering: connection: connect ECONNREFUSED 127.0.0.1:4010; partial report, exit 3',
    );
    expect(md).toContain(
      `| \`id.valid-accepted\` | §4.2 | documented | person with a Hebrew first name: a valid request was not accepted (HTTP 422) — target said: "${REFUSAL_WORDS}" |`,
    );
    expect(renderMarkdownSummary(sampleReport())).not.toContain('Stopped');
  });

  it('writes every file for an inconclusive and a stopped report, and they validate', async () => {
    for (const [name, report] of [
      ['inconclusive', inconclusiveReport()],
      ['stopped', stoppedReport()],
    ] as const) {
      const dir = path.join(root, `v13-${name}`);
      const { written, errors } = await writeReports(dir, report, sampleExchanges(), { secrets: [] });
      expect(errors).toEqual([]);
      expect(written).toHaveLength(6);
      expect(registry().validate('conformance-report', JSON.parse(await read(dir, REPORT_FILES.json)))).toEqual([]);
    }
  });

  it('no file shows a secret the target echoed in the answer a failure quotes', async () => {
    const TOKEN = 'tok_live_5f2a9c7e1b3d';
    const report = stoppedReport();
    const response = report.rules.find((r) => r.failures.length)!.failures[0].response!;
    response.body = { detail: `${'x'.repeat(104)} token ${TOKEN} refused` };
    response.rawBody = JSON.stringify(response.body);
    const dir = path.join(root, 'v13-echo');
    const { written, errors } = await writeReports(dir, report, [], { secrets: [TOKEN] });
    expect(errors).toEqual([]);
    for (const file of written) expect(await readFile(file, 'utf8'), file).not.toContain('tok_');
    expect(await read(dir, REPORT_FILES.markdown)).toContain('target said: "xxxx');
  });
});

describe('exchanges.har', () => {
  const har = buildHar(sampleExchanges(), { name: 'conformance', version: '0.1.0' });

  it('has the fields HAR 1.2 requires on the log, every entry, request and response', () => {
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'conformance', version: '0.1.0' });
    expect(har.log.entries).toHaveLength(4);
    for (const entry of har.log.entries) {
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(['startedDateTime', 'time', 'request', 'response', 'cache', 'timings']));
      expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
      expect(Object.keys(entry.request)).toEqual(
        expect.arrayContaining(['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize']),
      );
      expect(Object.keys(entry.response)).toEqual(
        expect.arrayContaining(['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize']),
      );
      expect(Object.keys(entry.response.content)).toEqual(expect.arrayContaining(['size', 'mimeType']));
      expect(entry.timings.send).toBeGreaterThanOrEqual(0);
      expect(entry.timings.wait).toBeGreaterThanOrEqual(0);
      expect(entry.timings.receive).toBeGreaterThanOrEqual(0);
      for (const h of [...entry.request.headers, ...entry.response.headers]) expect(typeof h.value).toBe('string');
    }
  });

  it('orders entries by start, records bodies and the query string, and marks the timeout with status 0 and _error', () => {
    const [first, second, , timeout] = har.log.entries;
    expect(first.request.queryString).toEqual([{ name: 'trace', value: '1' }]);
    expect(first.request.postData).toEqual({ mimeType: 'application/json', text: '{"metadata":{"a":"1"}}' });
    expect(second.request.postData?.text).toContain(JSON.stringify(HOSTILE.script));
    expect(second.response.statusText).toBe('OK');
    expect(second.response.content.text).toContain('PENDING');
    expect(timeout.response.status).toBe(0);
    expect(timeout._error).toEqual({ kind: 'timeout', message: 'no answer within 10000 ms' });
  });
});

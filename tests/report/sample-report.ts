/**
 * A realistic report of a failing run, for the writer and browser tests: two failing rules (one
 * documented, one convention), a skipped rule, passes, undocumented fields, and exchanges whose
 * payloads are hostile (emoji, RTL marks, combining marks, `<script>`, control characters) plus
 * one request that got no response, and an observed contract (`SAMPLE_CONTRACT`: four open points
 * refused, two accepted throughout). Variants (report version 1.3.0): an inconclusive run
 * (`inconclusiveReport`) and a run the target stopped answering (`stoppedReport`); a report of
 * version 1.6.0, before the observed contract (`legacyReport`).
 */
import type { ConformanceReport, ReportFailure, ReportRule } from '../../src/report/model/model.ts';
import { REPORT_VERSION } from '../../src/report/model/model.ts';
import { countRules } from '../../src/report/model/report-builder.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { RULES } from '../../src/core/catalogue.ts';
import type { ObservedContract } from '../../src/core/open-point.ts';

export const BASE_URL = 'http://127.0.0.1:4010';
export const FIAT_ACCOUNT_ID = '8d3b1c2e-7f4a-4e0b-9c51-2a6f0d9e1b37';
/** Payload values a report must show as text, never interpret. */
export const HOSTILE = {
  script: '<script>window.__pwned = 1</script>',
  emoji: '👩🏽‍💻🚀💶',
  rtl: '\u200Fשלום\u200E',
  combining: 'e\u0301\u0302\u0303',
  control: 'bell\u0007nul\u0000esc\u001b',
  quotes: `"'&</pre></td>`,
} as const;

const rule = (id: string, patch: Partial<ReportRule>, strict: boolean): ReportRule => {
  const def = RULES.find((r) => r.id === id);
  if (!def) throw new Error(`fixture uses an unknown rule ${id}`);
  const status = patch.status ?? 'passed';
  // As the report builder decides it: a failure or a shortfall blocks when documented, or under --strict.
  const blocking = status === 'error' || ((status === 'failed' || status === 'inconclusive') && (def.basis === 'documented' || strict));
  const cases = patch.cases ?? 24;
  const coverage = { fixed: Math.min(cases, 4), random: Math.max(0, cases - 4), distinctInputs: cases, minimum: { fixed: 1, random: 0 } };
  return { id, operation: def.operation, section: def.section, basis: def.basis, title: def.title, status, blocking, cases, coverage, failures: [], ...patch };
};

const hostileMetadata = {
  k1: HOSTILE.script,
  k2: HOSTILE.emoji,
  k3: HOSTILE.rtl,
  k4: HOSTILE.combining,
  k5: HOSTILE.control,
  k6: HOSTILE.quotes,
  k7: 'seventh pair',
};

const overPairsFailure: ReportFailure = {
  message: '7 pairs accepted (200)',
  kind: 'status',
  params: { expected: '4xx', received: 200 },
  case: { operation: 'updateFiatAccount', label: 'metadata with 7 pairs', mode: 'invalid', intent: 'forbidden', violates: 'fa.metadata.over-pairs-rejected' },
  request: {
    method: 'PUT',
    url: `${BASE_URL}/v2/transfer/fiat-accounts/${FIAT_ACCOUNT_ID}`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]', 'user-agent': 'conformance/0.1.0' },
    body: { metadata: hostileMetadata },
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    rawBody: JSON.stringify({ id: FIAT_ACCOUNT_ID, status: 'PENDING', created_at: '2026-01-05T10:00:00Z', metadata: hostileMetadata }),
    json: true,
    body: { id: FIAT_ACCOUNT_ID, status: 'PENDING', created_at: '2026-01-05T10:00:00Z', metadata: hostileMetadata },
  },
  curl: `curl -sS -X PUT '${BASE_URL}/v2/transfer/fiat-accounts/${FIAT_ACCOUNT_ID}' -H "Authorization: Bearer $CONFORMANCE_TOKEN" -H 'Content-Type: application/json' --data-raw '{"metadata":{"k1":"<script>window.__pwned = 1</script>"}}'`,
  seed: 424242,
  path: '3:1:0',
};

const dobFailure: ReportFailure = {
  message: 'date_of_birth came back as 1990-05-17T02:00:00+02:00, not midnight UTC of 1990-05-17',
  instancePath: '/person_details/date_of_birth',
  kind: 'mismatch',
  params: { field: '/person_details/date_of_birth', expected: '1990-05-17T00:00:00Z', received: '1990-05-17T02:00:00+02:00' },
  case: { operation: 'createIdentity', label: 'person with date_of_birth 1990-05-17', mode: 'valid', intent: 'guaranteed' },
  request: {
    method: 'POST',
    url: `${BASE_URL}/v2/identity/identities`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
    body: {
      ref_id: 'conf-424242-17',
      tax_details_not_required: true,
      person_details: { first_name: HOSTILE.rtl, last_name: HOSTILE.combining, date_of_birth: '1990-05-17' },
    },
  },
  response: {
    status: 201,
    headers: { 'content-type': 'application/json' },
    rawBody: '{"id":"idt_1","status":"PENDING","summary_status":"PENDING","person_details":{"date_of_birth":"1990-05-17T02:00:00+02:00"}}',
    json: true,
    body: { id: 'idt_1', status: 'PENDING', summary_status: 'PENDING', person_details: { date_of_birth: '1990-05-17T02:00:00+02:00' } },
  },
  curl: `curl -sS -X POST '${BASE_URL}/v2/identity/identities' -H "Authorization: Bearer $CONFORMANCE_TOKEN" -H 'Content-Type: application/json' --data-raw '{"ref_id":"conf-424242-17"}'`,
  seed: 424242,
};

const timeoutFailure: ReportFailure = {
  message: 'no answer within 10000 ms (timeout)',
  kind: 'no-answer',
  params: { error: 'timeout' },
  case: { operation: 'createIdentity', label: 'valid person', mode: 'valid', intent: 'guaranteed' },
  request: {
    method: 'POST',
    url: `${BASE_URL}/v2/identity/identities`,
    headers: { authorization: 'Bearer [REDACTED]' },
    body: { tax_details_not_required: true },
  },
  error: { kind: 'timeout', message: 'no answer within 10000 ms' },
  curl: `curl -sS -X POST '${BASE_URL}/v2/identity/identities' -H "Authorization: Bearer $CONFORMANCE_TOKEN"`,
  seed: 424242,
};

/** What the sample target says when it refuses a first name in another alphabet. */
export const ALPHABET_WORDS = 'first_name must match ^[A-Za-z ]+$';

/**
 * The sample target's observed contract, in the order a run writes it (operation, field, kind):
 * refused a longer address line, another alphabet, a country code (its words quote a pipe and a
 * script) and an early date of birth; accepted every city length and last-name alphabet tried.
 */
export const SAMPLE_CONTRACT: ObservedContract = {
  version: 1,
  limits: [
    {
      operation: 'updateFiatAccount',
      field: 'wire.fiat_account_owner_address.city',
      kind: 'length',
      accepted: ['1 character', '200 characters'],
      refused: [],
      longestAccepted: 200,
      summary: 'accepted up to 200 characters',
    },
    {
      operation: 'createIdentity',
      field: 'person_details.address.address1',
      kind: 'length',
      accepted: ['12 characters', '35 characters'],
      refused: [
        { value: '36 characters', status: 422, said: 'address1 is longer than 35 characters' },
        { value: '200 characters', status: 422, said: 'address1 is longer than 35 characters' },
      ],
      longestAccepted: 35,
      shortestRefused: 36,
      summary: 'refuses over 35 characters (accepted up to 35)',
    },
    {
      operation: 'createIdentity',
      field: 'person_details.address.country',
      kind: 'code',
      accepted: ['GBR', 'DEU'],
      refused: [{ value: 'XKX', status: 400, said: `country must be one of GBR | DEU | FRA ${HOSTILE.script}` }],
      summary: 'refused XKX; accepted GBR, DEU',
    },
    {
      operation: 'createIdentity',
      field: 'person_details.date_of_birth',
      kind: 'date',
      accepted: ['1930-01-01', '2005-06-30'],
      refused: [{ value: '1899-12-31', status: 400 }],
      earliestAccepted: '1930-01-01',
      latestAccepted: '2005-06-30',
      summary: 'refused 1899-12-31; accepted 1930-01-01 to 2005-06-30',
    },
    {
      operation: 'createIdentity',
      field: 'person_details.first_name',
      kind: 'alphabet',
      accepted: ['latin'],
      refused: [
        { value: 'cjk', status: 400, said: ALPHABET_WORDS },
        { value: 'astral', status: 400, said: ALPHABET_WORDS },
      ],
      summary: 'refused cjk, astral; accepted accented latin (é, ñ, ß)',
    },
    {
      operation: 'createIdentity',
      field: 'person_details.last_name',
      kind: 'alphabet',
      accepted: ['latin', 'cjk', 'rtl'],
      refused: [],
      summary: 'accepted accented latin (é, ñ, ß), cjk, rtl',
    },
  ],
};

/** The open cases of the sample run, by the target's answer. */
export const SAMPLE_OPEN_CASES = { accepted: 41, refused: 6 };

/** A non-conformant report: 2 failures of a documented rule, 1 of a convention rule, 1 skipped rule. */
export function sampleReport({ strict = false }: { strict?: boolean } = {}): ConformanceReport {
  const rules: ReportRule[] = RULES.map((r) => rule(r.id, {}, strict));
  // Callers mutate what they get (the redaction test leaks secrets into it): hand out copies.
  const overPairsFailure_ = structuredClone(overPairsFailure);
  const dobFailure_ = structuredClone(dobFailure);
  const timeoutFailure_ = structuredClone(timeoutFailure);
  const set = (id: string, patch: Partial<ReportRule>) => {
    const i = rules.findIndex((r) => r.id === id);
    rules[i] = rule(id, patch, strict);
  };
  set('fa.metadata.over-pairs-rejected', { status: 'failed', cases: 7, failures: [overPairsFailure_] });
  set('id.dob.midnight-utc', { status: 'failed', cases: 12, failures: [dobFailure_] });
  set('id.answers', { status: 'failed', cases: 40, failures: [timeoutFailure_] });
  set('id.ref-id.concurrent-duplicate', { status: 'skipped', cases: 0, reason: 'the profile runs no concurrent scenario' });
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: 'conformance', version: '0.1.0' },
    target: { baseUrl: BASE_URL, embedded: false },
    schemasHash: 'a3f1c9e07b5d4e2f8a6b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5',
    seed: 424242,
    profile: 'standard',
    strict,
    startedAt: '2026-01-05T10:00:00.000Z',
    durationMs: 12_345,
    summary: { verdict: 'non-conformant', ...countRules(rules), requests: 612, openCases: { ...SAMPLE_OPEN_CASES } },
    rules,
    observedContract: structuredClone(SAMPLE_CONTRACT),
    undocumentedFields: [
      { path: '/summary_status', operation: 'createIdentity', count: 58 },
      { path: "/person_details/passthrough_verifier_type'", operation: 'createIdentity', count: 58 },
      { path: `/metadata/${HOSTILE.script}`, operation: 'updateFiatAccount', count: 1 },
    ],
  };
}

/** The exchanges of the run: the failing ones, a pass, and one that timed out. */
export function sampleExchanges(): Exchange[] {
  const fromFailure = (original: ReportFailure, startedAt: string, durationMs: number): Exchange => {
    const f = structuredClone(original);
    return {
      testCase: {
        operation: f.case.operation,
        mode: f.case.mode as Exchange['testCase']['mode'],
        label: f.case.label,
        body: f.request.body,
        ...(f.case.violates ? { violates: f.case.violates as Exchange['testCase']['violates'] } : {}),
      },
      request: f.request,
      ...(f.response ? { response: f.response } : {}),
      ...(f.error ? { error: f.error } : {}),
      startedAt,
      durationMs,
    };
  };
  return [
    fromFailure(overPairsFailure, '2026-01-05T10:00:01.000Z', 31),
    fromFailure(dobFailure, '2026-01-05T10:00:02.000Z', 18),
    fromFailure(timeoutFailure, '2026-01-05T10:00:03.000Z', 10_000),
    {
      testCase: {
        operation: 'updateFiatAccount',
        mode: 'boundary',
        exercises: 'fa.metadata.max-pairs-accepted',
        label: 'metadata with 6 pairs',
        fiatAccountId: FIAT_ACCOUNT_ID,
      },
      request: {
        method: 'PUT',
        url: `${BASE_URL}/v2/transfer/fiat-accounts/${FIAT_ACCOUNT_ID}?trace=1`,
        headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
        rawBody: '{"metadata":{"a":"1"}}',
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, rawBody: '{"id":"x"}', json: true, body: { id: 'x' } },
      startedAt: '2026-01-05T10:00:00.500Z',
      durationMs: 12,
    },
  ];
}

/** What the sample target answers a valid identity it refuses: a problem body naming the field. */
export const REFUSAL_WORDS = 'first_name must be ASCII';

/** A valid identity refused with HTTP 422 and a problem body that says why. */
export const refusedFailure: ReportFailure = {
  message: 'person with a Hebrew first name: a valid request was not accepted (HTTP 422)',
  kind: 'status',
  params: { expected: '2xx', received: 422 },
  case: { operation: 'createIdentity', label: 'person with a Hebrew first name', mode: 'valid', intent: 'guaranteed' },
  request: {
    method: 'POST',
    url: `${BASE_URL}/v2/identity/identities`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
    body: { ref_id: 'conf-424242-3', tax_details_not_required: true, person_details: { first_name: HOSTILE.rtl } },
  },
  response: {
    status: 422,
    headers: { 'content-type': 'application/problem+json' },
    rawBody: JSON.stringify({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: REFUSAL_WORDS }),
    json: true,
    body: { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: REFUSAL_WORDS },
  },
  curl: `curl -sS -X POST '${BASE_URL}/v2/identity/identities' -H "Authorization: Bearer $CONFORMANCE_TOKEN" -H 'Content-Type: application/json' --data-raw '{"ref_id":"conf-424242-3"}'`,
  seed: 424242,
};

/** An open case (a first name in CJK) the target accepted, but whose answer lost the name: judged like any other. */
export const openCaseFailure: ReportFailure = {
  message: 'person_details.first_name came back as "??", not as sent',
  instancePath: '/person_details/first_name',
  kind: 'not-reflected',
  params: { field: '/person_details/first_name', sent: '山田', received: '??' },
  case: {
    operation: 'createIdentity',
    label: 'person with a first name in cjk',
    mode: 'valid',
    intent: 'open',
    open: { field: 'person_details.first_name', kind: 'alphabet', value: 'cjk', alphabet: 'cjk' },
  },
  request: {
    method: 'POST',
    url: `${BASE_URL}/v2/identity/identities`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
    body: { ref_id: 'conf-424242-9', tax_details_not_required: true, person_details: { first_name: '山田', last_name: 'Smith' } },
  },
  response: {
    status: 201,
    headers: { 'content-type': 'application/json' },
    rawBody: '{"id":"idt_9","person_details":{"first_name":"??","last_name":"Smith"}}',
    json: true,
    body: { id: 'idt_9', person_details: { first_name: '??', last_name: 'Smith' } },
  },
  curl: `curl -sS -X POST '${BASE_URL}/v2/identity/identities' -H "Authorization: Bearer $CONFORMANCE_TOKEN" -H 'Content-Type: application/json' --data-raw '{"ref_id":"conf-424242-9"}'`,
  seed: 424242,
};

/** The reason the report builder gives a documented rule judged by too few cases. */
export const SHORTFALL =
  'judged by 3 fixed and 0 random cases (minimum 2 and 25): 27 of 30 identity creates were refused; first refusal: HTTP 422 first_name must be ASCII';

/**
 * An inconclusive run: nothing failed, the documented id.dob.midnight-utc was judged by 3 fixed
 * and 0 random cases of a minimum 2 + 25 (blocking), the convention id.type-person by too few too
 * (not blocking). Verdict inconclusive, exit 4.
 */
export function inconclusiveReport({ strict = false }: { strict?: boolean } = {}): ConformanceReport {
  const report = sampleReport({ strict });
  report.rules = RULES.map((r) => rule(r.id, {}, strict));
  const set = (id: string, patch: Partial<ReportRule>) => {
    const i = report.rules.findIndex((r) => r.id === id);
    report.rules[i] = rule(id, patch, strict);
  };
  set('id.dob.midnight-utc', {
    status: 'inconclusive',
    cases: 3,
    coverage: { fixed: 3, random: 0, distinctInputs: 3, minimum: { fixed: 2, random: 25 } },
    reason: SHORTFALL,
  });
  set('id.type-person', {
    status: 'inconclusive',
    cases: 1,
    coverage: { fixed: 1, random: 0, distinctInputs: 1, minimum: { fixed: 1, random: 5 } },
    reason: 'judged by 1 fixed and 0 random cases (minimum 1 and 5): most creates were refused',
  });
  report.summary = { verdict: 'inconclusive', ...countRules(report.rules), requests: 301, openCases: { ...SAMPLE_OPEN_CASES } };
  return report;
}

/**
 * A run the target stopped answering after 212 requests, while judging id.dob.midnight-utc: a
 * partial report (verdict error, exit 3). It failed id.valid-accepted before (HTTP 422 with a
 * problem body), and the rule it was judging stayed short of its minimum.
 */
export function stoppedReport(): ConformanceReport {
  const report = sampleReport();
  report.rules = RULES.map((r) => rule(r.id, {}, false));
  const set = (id: string, patch: Partial<ReportRule>) => {
    const i = report.rules.findIndex((r) => r.id === id);
    report.rules[i] = rule(id, patch, false);
  };
  set('id.valid-accepted', { status: 'failed', cases: 30, failures: [structuredClone(refusedFailure)] });
  set('id.dob.midnight-utc', {
    status: 'inconclusive',
    cases: 1,
    coverage: { fixed: 1, random: 0, distinctInputs: 1, minimum: { fixed: 2, random: 25 } },
    reason: 'judged by 1 fixed and 0 random cases (minimum 2 and 25): the run stopped',
  });
  report.stopped = {
    kind: 'unreachable',
    message: 'the target stopped answering: connection: connect ECONNREFUSED 127.0.0.1:4010',
    requests: 212,
    rule: 'id.dob.midnight-utc',
  };
  report.summary = { verdict: 'error', ...countRules(report.rules), requests: 212, openCases: { ...SAMPLE_OPEN_CASES } };
  return report;
}

/** The sample run as version 1.6.0 wrote it: no observed contract, no open-case counts, no case intent. */
export function legacyReport(): ConformanceReport {
  const { observedContract: _none, ...report } = sampleReport();
  const { openCases: _uncounted, ...summary } = report.summary;
  for (const failure of report.rules.flatMap((r) => r.failures)) delete failure.case.intent;
  return { ...report, reportVersion: '1.6.0', summary };
}

/**
 * The sample target's next release: it takes address lines of 200 characters, refuses GBR now,
 * refuses an early date of birth with 422 instead of 400, checks a bank name's length (a point
 * the older run did not try) and was not tried on last names.
 */
export function nextReleaseReport(): ConformanceReport {
  const report = sampleReport();
  const limit = (field: string) => report.observedContract!.limits.find((l) => l.field === field)!;
  Object.assign(limit('person_details.address.address1'), {
    accepted: ['12 characters', '35 characters', '36 characters', '200 characters'],
    refused: [],
    longestAccepted: 200,
    summary: 'accepted up to 200 characters',
  });
  delete limit('person_details.address.address1').shortestRefused;
  Object.assign(limit('person_details.address.country'), {
    accepted: ['DEU'],
    refused: [
      { value: 'XKX', status: 400, said: 'country must be one of DEU | FRA' },
      { value: 'GBR', status: 400, said: 'country must be one of DEU | FRA' },
    ],
    summary: 'refused XKX, GBR; accepted DEU',
  });
  limit('person_details.date_of_birth').refused[0].status = 422;
  report.observedContract!.limits = report.observedContract!.limits.filter((l) => l.field !== 'person_details.last_name');
  report.observedContract!.limits.unshift({
    operation: 'updateFiatAccount',
    field: 'wire.bank_name',
    kind: 'length',
    accepted: ['35 characters'],
    refused: [{ value: '36 characters', status: 422 }],
    longestAccepted: 35,
    shortestRefused: 36,
    summary: 'refuses over 35 characters (accepted up to 35)',
  });
  return report;
}

/**
 * `npm run bench`: figures for the closing notes, never a timed test. Prints
 *  1. wall time and request count of the default (standard) run against the embedded server;
 *  2. the harness's requests per second against a bare loopback baseline measured in the same
 *     process right after (plain node:http keep-alive PUTs to the same server): the ratio is the
 *     figure, since absolute numbers vary with the machine's load;
 *  3. how many requests the harness needs to detect each fault.
 * Usage: npm run bench [-- --runs N --seed N --baseline-requests N]
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { createReferenceServer } from '../src/server/server.ts';
import { FAULTS } from '../src/server/faults.ts';
import { runEmbedded } from '../src/run/embedded-run.ts';
import { judge } from '../src/rules/judge.ts';
import { PROFILES } from '../src/engine/profiles.ts';
import type { ReportEvent } from '../src/report/report-events.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' }, 'baseline-requests': { type: 'string' } } });
const runs = Number(values.runs ?? PROFILES.standard);
const seed = Number(values.seed ?? 1);
const baselineRequests = Number(values['baseline-requests'] ?? 2000);

async function defaultRun() {
  const started = performance.now();
  const { report } = await runEmbedded({ runs, seed });
  const ms = performance.now() - started;
  return { ms, requests: report.summary.requests, verdict: report.summary.verdict };
}

/** The same server, the simplest valid request, sent as fast as one client can: what loopback allows. */
async function baseline() {
  const server = await createReferenceServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${server.baseUrl}/v2/transfer/fiat-accounts/${server.fiatAccountIds[0]}`);
  const body = JSON.stringify({ fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } } });
  const send = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'PUT', agent, headers: { authorization: `Bearer ${server.staticToken}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`baseline got ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  try {
    for (let i = 0; i < 50; i++) await send(); // warm-up
    const started = performance.now();
    for (let i = 0; i < baselineRequests; i++) await send();
    return { ms: performance.now() - started, requests: baselineRequests };
  } finally {
    agent.destroy();
    await server.close();
  }
}

/**
 * Requests sent until the fault's own rule first fails (the evidence may be shrunk further later).
 * Scenario rules (ref_id duplicates) are judged over several exchanges: for those it is the
 * request count when the rule ends failed.
 */
async function requestsToDetect(fault: (typeof FAULTS)[number]) {
  let count = 0;
  let detectedAt: number | undefined;
  let pool: string[] = [];
  const listener = (event: ReportEvent) => {
    if (event.type === 'run-start') pool = [...event.fiatAccountIds];
    if (event.type === 'rule-end' && event.rule.id === fault.ruleId && event.rule.status === 'failed') detectedAt ??= count;
    if (event.type !== 'exchange') return;
    count++;
    if (detectedAt !== undefined) return;
    const found = judge(event.exchange, { fiatAccountIds: pool, mergeMayExceedLimit: () => false }).some((j) => j.rule === fault.ruleId && j.problems.length);
    if (found) detectedAt = count;
  };
  const { report } = await runEmbedded({ fault: fault.name, runs: 10, seed, listeners: [listener] });
  const rule = report.rules.find((r) => r.id === fault.ruleId);
  return { fault: fault.name, rule: fault.ruleId, status: rule?.status, detectedAt, total: report.summary.requests };
}

const run = await defaultRun();
const base = await baseline();
const harnessRps = run.requests / (run.ms / 1000);
const baseRps = base.requests / (base.ms / 1000);
console.log(`default run (runs=${runs}, seed=${seed}): ${(run.ms / 1000).toFixed(2)} s, ${run.requests} requests, verdict ${run.verdict}`);
console.log(`harness: ${harnessRps.toFixed(0)} requests/s; bare loopback baseline: ${baseRps.toFixed(0)} requests/s (${base.requests} PUTs)`);
console.log(`ratio harness/baseline: ${(harnessRps / baseRps).toFixed(3)}`);
console.log('requests until each fault is first detected (runs=10):');
const rows = [];
for (const fault of FAULTS) rows.push(await requestsToDetect(fault));
const width = Math.max(...rows.map((r) => r.fault.length));
for (const r of rows) console.log(`  ${r.fault.padEnd(width)}  ${String(r.detectedAt ?? 'never').padStart(5)} of ${r.total}  (${r.rule} ${r.status})`);
const detected = rows.filter((r) => r.detectedAt !== undefined).map((r) => r.detectedAt!).sort((a, b) => a - b);
console.log(`detected ${detected.length}/${rows.length}; median ${detected[Math.floor(detected.length / 2)] ?? '-'} requests, max ${detected.at(-1) ?? '-'}`);

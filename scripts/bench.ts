/**
 * `npm run bench`: figures for the closing notes, never a timed test. Prints
 *  1. wall time and request count of the default (standard) run against the embedded server;
 *  2. the harness's requests per second against a bare loopback baseline measured in the same
 *     process right after (plain node:http keep-alive PUTs to the same server): the ratio is the
 *     figure, since absolute numbers vary with the machine's load;
 *  3. requests per run of each profile (the budget: a standard run stays under 1,000);
 *  4. per fault, requests until its rule first saw a problem (median, max).
 * Usage: npm run bench [-- --runs N --seed N --baseline-requests N --fault-runs N]
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { createReferenceServer } from '../src/server/server.ts';
import { FAULTS } from '../src/server/faults.ts';
import { runEmbedded } from '../src/run/embedded-run.ts';
import { runFault } from '../src/run/fault-matrix.ts';
import { PROFILES } from '../src/engine/profiles.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' }, 'baseline-requests': { type: 'string' }, 'fault-runs': { type: 'string' } } });
const runs = Number(values.runs ?? PROFILES.standard);
const seed = Number(values.seed ?? 1);
const baselineRequests = Number(values['baseline-requests'] ?? 2000);
const faultRuns = Number(values['fault-runs'] ?? PROFILES.quick);

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

/** Requests of one run per profile against the faithful embedded server: the request budget. */
async function requestsPerProfile() {
  const rows = [];
  for (const [profile, profileRuns] of Object.entries(PROFILES)) {
    const started = performance.now();
    const { report } = await runEmbedded({ runs: profileRuns, seed });
    rows.push({ profile, runs: profileRuns, requests: report.summary.requests, verdict: report.summary.verdict, seconds: (performance.now() - started) / 1000 });
  }
  return rows;
}

const run = await defaultRun();
const base = await baseline();
const harnessRps = run.requests / (run.ms / 1000);
const baseRps = base.requests / (base.ms / 1000);
console.log(`default run (runs=${runs}, seed=${seed}): ${(run.ms / 1000).toFixed(2)} s, ${run.requests} requests, verdict ${run.verdict}`);
console.log(`harness: ${harnessRps.toFixed(0)} requests/s; bare loopback baseline: ${baseRps.toFixed(0)} requests/s (${base.requests} PUTs)`);
console.log(`ratio harness/baseline: ${(harnessRps / baseRps).toFixed(3)}`);
console.log('requests per run, faithful embedded server:');
for (const r of await requestsPerProfile()) console.log(`  ${r.profile.padEnd(8)} runs=${String(r.runs).padEnd(4)} ${String(r.requests).padStart(6)} requests  ${r.seconds.toFixed(1)} s  ${r.verdict}`);

console.log(`each fault (runs=${faultRuns}): requests until its rule first saw a problem, of the run's total`);
const outcomes = [];
for (const fault of FAULTS) outcomes.push(await runFault(fault, faultRuns, seed));
const width = Math.max(...outcomes.map((o) => o.fault.name.length));
for (const o of outcomes) {
  const at = o.firstDetectionAt ?? (o.detected ? `(${o.fault.expect})` : 'never');
  console.log(`  ${o.fault.name.padEnd(width)}  ${String(at).padStart(14)} of ${String(o.requests).padStart(5)}  ${o.fault.ruleId} ${o.status ?? ''}${o.blocks ? '' : '  NOT BLOCKING'}`);
}
const firsts = outcomes.map((o) => o.firstDetectionAt).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
const caught = outcomes.filter((o) => o.blocks).length;
console.log(`caught ${caught}/${outcomes.length}; first detection: median ${firsts[Math.floor(firsts.length / 2)] ?? '-'} requests, max ${firsts.at(-1) ?? '-'}`);

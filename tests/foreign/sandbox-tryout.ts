/**
 * By hand, not a test: the built CLI (`npm run build` first) run once against the sandbox target,
 * and what it did to the accounts, field by field (the sandbox's own records before and after).
 *
 *   npx tsx tests/foreign/sandbox-tryout.ts '{"update":"replace"}' [--profile quick ...extra run flags]
 *
 * The first argument is the SandboxOptions as JSON; the rest are added to `conformance run`.
 * RUNS=10 runs it ten times against the same accounts; FAULT=PUT:1:500 gives the first account's
 * first PUT a 500 (method:nth:fault[:restartMs]).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandboxTarget, type SandboxAccount, type SandboxFault, type SandboxLogEntry, type SandboxOptions, type SandboxTarget } from './sandbox-target.ts';

/** Every leaf of an account record by its dotted path (updated_at left out: it moves on every update). */
function flat(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) for (const [p, leaf] of flat(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
  } else out.set(prefix, value);
  out.delete('updated_at');
  return out;
}

const short = (text = 'undefined') => ([...text].length > 40 ? `${[...text].slice(0, 37).join('')}...` : text);

/** The fields that differ between two records: `field: before -> after`. */
export function accountDiff(before: SandboxAccount, after: SandboxAccount): string[] {
  const [a, b] = [flat(before), flat(after)];
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k)))
    .map((k) => `${short(k)}: ${short(JSON.stringify(a.get(k)))} -> ${short(JSON.stringify(b.get(k)))}`);
}

/** One `conformance run` against the target (seed 1 unless `extra` names another); its exit code and conformance.json. */
function runOnce(target: SandboxTarget, extra: string[]): Promise<{ code: number; stdout: string; report: any }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-tryout-'));
  const args = ['bin/conformance.js', 'run', '--base-url', target.baseUrl, '--token', target.token, '--report-dir', dir, '--seed', '1', ...extra];
  for (const id of target.accountIds) args.push('--fiat-account-id', id);
  return new Promise((resolve) =>
    execFile('node', args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout, report: JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8')) });
    }),
  );
}

async function main(): Promise<void> {
  const [optionsJson = '{}', ...extra] = process.argv.slice(2);
  const target = await startSandboxTarget(JSON.parse(optionsJson) as SandboxOptions);
  // FAULT=PUT:1:500 (method:nth:fault[:restartMs]): that request to the first account gets the fault, once.
  if (process.env.FAULT) {
    const [method, nth, fault, restartMs] = process.env.FAULT.split(':');
    target.inject({
      match: (r) => r.method === method && r.accountId === target.accountIds[0] && r.nth === Number(nth),
      fault: fault as SandboxFault,
      ...(restartMs ? { restartMs: Number(restartMs) } : {}),
    });
  }
  const before = target.accountIds.map((id) => target.snapshot(id));
  const runs = Number(process.env.RUNS ?? 1);
  console.log(`sandbox ${optionsJson}, ${runs} run(s) of conformance run ${extra.join(' ')}`);
  for (let run = 1; run <= runs; run++) {
    const sent = target.log.length;
    const { code, report } = await runOnce(target, extra);
    const inconclusive = report.rules.filter((r: { status: string }) => r.status === 'inconclusive').length;
    const failed = report.rules.filter((r: { status: string }) => r.status === 'failed').map((r: { id: string }) => r.id);
    console.log(
      `run ${run}: exit ${code}, verdict ${report.summary.verdict} (failed: ${failed.join(', ') || 'none'}; ${inconclusive} rules inconclusive), ${target.log.length - sent} requests; restore: ${report.restore?.note}`,
    );
    target.accountIds.forEach((id, i) => {
      const diff = accountDiff(before[i], target.snapshot(id));
      const said = report.restore?.accounts?.find((a: { id: string }) => a.id === id);
      console.log(
        `  account ${i + 1}: report says ${said?.outcome} (${said?.notRestored?.length ?? 0} named not restored); sandbox: ${diff.length ? `${diff.length} fields changed` : 'as found'}`,
      );
      if (run === runs) for (const line of diff) console.log(`    ${line}`);
    });
  }
  const line = (e: SandboxLogEntry) => `${e.method} ${e.path.replace(/^\/v2\/transfer\/fiat-accounts\/.*/, 'account')} ${e.status ?? e.fault}`;
  const puts = target.log.filter((e) => e.method === 'PUT' && e.accountId === target.accountIds[0]);
  console.log(
    `PUTs to account 1: ${puts.length}; its last four answered ${puts
      .slice(-4)
      .map((e) => e.status ?? e.fault)
      .join(', ')}`,
  );
  console.log(`first requests: ${target.log.slice(0, 3).map(line).join('; ')}`);
  console.log(`last requests: ${target.log.slice(-4).map(line).join('; ')}`);
  await target.close();
}

await main();

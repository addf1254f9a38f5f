/**
 * A HAR replayed against the live faulty target it was recorded on agrees with the run (issue 31
 * point 2): the target still holds the run's identities, so every create goes out with a fresh
 * ref_id (a repeat of the run's keeps repeating the same fresh one), no valid create is "refused"
 * with 409, and every rule the HAR judges again has the report's status.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replay } from '../../src/cli/replay.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import type { FaultName } from '../../src/server/faults.ts';
import { conformance, reportDir, targetFlags } from './binary.ts';
import { testIO } from './test-io.ts';

const servers: ReferenceServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** A run against a live server with `fault` (limited to `rules` when given), then its HAR replayed against the same server. */
async function runThenReplay(fault: FaultName, rules: string[] = []): Promise<{ out: string[]; code: number; failed: string[]; recordedRefIds: Set<string> }> {
  const server = await createReferenceServer({ fault });
  servers.push(server);
  const dir = reportDir();
  const flags = targetFlags({ baseUrl: server.baseUrl, token: server.staticToken }, server.fiatAccountIds);
  const run = await conformance(['run', '--profile', 'quick', '--seed', '31', '--report-dir', dir, ...rules.flatMap((r) => ['--rule', r]), ...flags]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8')) as { rules: { id: string; status: string }[] };
  const har = readFileSync(path.join(dir, 'exchanges.har'), 'utf8');
  const recordedRefIds = new Set([...har.matchAll(/\\"ref_id\\":\\"([^\\"]+)\\"/g)].map((m) => m[1]));
  const { io, out } = testIO();
  const code = await replay([path.join(dir, 'exchanges.har'), ...flags], io);
  return { out, code, failed: report.rules.filter((r) => r.status === 'failed').map((r) => r.id), recordedRefIds };
}

describe('replay <exchanges.har> against the live faulty target of its run', () => {
  it('id-dob-previous-day: the same failed rule, no 409 on a valid create, every status as the report says', async () => {
    const { out, code, failed } = await runThenReplay('id-dob-previous-day');
    const text = out.join('\n');
    expect(failed).toEqual(['id.dob.midnight-utc']);
    expect(out[0]).toMatch(/^target http:\/\/127\.0\.0\.1:\d+ \(from --base-url\)$/);
    expect(text).toMatch(/^ {2}id\.dob\.midnight-utc\s+failed\s+\d+ cases\s+date_of_birth sent/m);
    expect(text).toMatch(/^ {2}id\.valid-accepted\s+passed/m);
    expect(text).not.toContain('HTTP 409');
    expect(text).not.toContain('differs:');
    expect(text).toContain('every rule re-judged has the status the report gives it');
    expect(code, text).toBe(0);
  }, 60_000);

  it('id-ref-id-not-unique: the repeats repeat a fresh ref_id and still make a second identity', async () => {
    const { out, code, failed, recordedRefIds } = await runThenReplay('id-ref-id-not-unique', ['id.ref-id', 'id.valid-accepted']);
    const text = out.join('\n');
    // The repeated ref_id is the replay's own, not one the run sent.
    const repeated = /ref_id (\S+) was used again/.exec(text)![1];
    expect(recordedRefIds.size).toBeGreaterThan(5);
    expect(recordedRefIds.has(repeated)).toBe(false);
    expect(failed).toContain('id.ref-id.sequential-duplicate');
    expect(text).toMatch(/^ {2}id\.ref-id\.sequential-duplicate\s+failed\s+\d+ cases\s+ref_id \S+ was used again and a second identity/m);
    expect(text).toMatch(/^ {2}id\.valid-accepted\s+passed/m);
    expect(text).not.toContain('differs:');
    expect(code, text).toBe(0);
  }, 60_000);
});

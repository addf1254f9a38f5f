/**
 * --state across runs of one embedded server kept up between them, and across a "reset" (a fresh
 * server behind the same URL and the same credentials): earlier runs' ref_ids are repeated and
 * judged, a reset is said and not judged, and a file that is not ours is a usage error.
 */
import http from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { runConfig, type RunConfig } from '../../src/run/run-config.ts';
import { apiUserKey, KEEP_PER_USER, STATE_KIND } from '../../src/run/identity-state.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { listenOnLoopback, type Listening } from '../foreign/loopback-listen.ts';
import { REMEMBERED_ELSEWHERE, rejudgeDisagreement, rejudgeHar } from '../../src/run/har-rejudge.ts';
import type { HarEntry } from '../../src/report/files/har.ts';

const TOKEN = 'state-test-token-0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function server(): Promise<ReferenceServer> {
  const s = await createReferenceServer();
  closers.push(() => s.close());
  return s;
}

/** One URL and one API user in front of whichever server is current: a sandbox that may be wiped between runs. */
async function sandbox(first: ReferenceServer): Promise<Listening & { use(s: ReferenceServer): void; current(): ReferenceServer }> {
  let backend = first;
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${backend.staticToken}`, host: new URL(backend.baseUrl).host };
    const upstream = http.request(`${backend.baseUrl}${req.url}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const listening = await listenOnLoopback(proxy);
  closers.push(() => listening.close());
  return { ...listening, use: (s) => (backend = s), current: () => backend };
}

async function run(config: RunConfig, reports = false) {
  const notes: string[] = [];
  const repeats: Exchange[] = [];
  const outcome = await orchestrateRun(config, {
    reports,
    hooks: {
      noted: (line) => notes.push(line),
      listeners: () => ({
        before: [
          (event) => {
            if (event.type === 'exchange' && event.exchange.testCase.label.includes('an earlier run created')) repeats.push(event.exchange);
          },
        ],
      }),
    },
  });
  const rule = outcome.report.rules.find((r) => r.id === 'id.ref-id.sequential-duplicate');
  return { outcome, rule, notes, repeats };
}

describe('--state', () => {
  it('repeats ref_ids of earlier runs on the same server, and says a reset without judging it', async () => {
    const first = await server();
    const target = await sandbox(first);
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'conformance-state-')), 'state.json');
    const config = (s: ReferenceServer, seed: number) =>
      runConfig({
        seed,
        runs: 1,
        ruleFilter: ['id.ref-id.sequential-duplicate'],
        baseUrl: target.url,
        auth: { kind: 'static', token: TOKEN },
        fiatAccountIds: s.fiatAccountIds,
        stateFile: file,
      });

    const one = await run(config(first, 1));
    expect(one.rule?.status).toBe('passed');
    expect(one.repeats).toEqual([]);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ kind: STATE_KIND, version: 1, users: [{ target: target.url, user: apiUserKey({ kind: 'static', token: TOKEN }) }] });
    const kept = saved.users[0].identities.length;
    expect(kept).toBeGreaterThanOrEqual(3);
    // The key is a digest: neither the token nor the server's own credentials are in the file.
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(first.staticToken);

    // The same server kept up: three remembered ref_ids come back refused or as their identities.
    const reportDir = await mkdtemp(path.join(tmpdir(), 'conformance-state-reports-'));
    const two = await run({ ...config(first, 2), reportDir }, true);
    expect(two.rule?.status).toBe('passed');
    expect(two.repeats).toHaveLength(3);
    // Its HAR holds no first identity of those ref_ids: the rule is not re-judged, and says why.
    const har = JSON.parse(await readFile(path.join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } };
    const rejudged = rejudgeHar(har.log.entries);
    expect(rejudged.notRejudged).toContainEqual({ id: 'id.ref-id.sequential-duplicate', why: REMEMBERED_ELSEWHERE });
    expect(rejudgeDisagreement(two.outcome.report, rejudged)).toBeUndefined();
    expect(two.notes.filter((n) => n.includes('forgot'))).toEqual([]);
    expect(JSON.parse(await readFile(file, 'utf8')).users[0].identities.length).toBe(Math.min(KEEP_PER_USER, 2 * kept));

    // A fresh server behind the same URL: every remembered ref_id makes a new identity, a reset.
    const fresh = await server();
    target.use(fresh);
    const three = await run(config(fresh, 3));
    expect(three.rule?.status).toBe('passed');
    expect(three.repeats).toHaveLength(3);
    expect(three.notes.find((n) => n.includes('forgot'))).toMatch(
      /the target forgot every identity of the runs? of .*: a reset of the sandbox or a forgetting index, cannot tell/,
    );
    // The file starts over: this run's identities only.
    expect(JSON.parse(await readFile(file, 'utf8')).users[0].identities.length).toBe(kept);
  });

  it('refuses a file that is not a state file, and needs a target that outlives the run', async () => {
    const s = await server();
    const dir = await mkdtemp(path.join(tmpdir(), 'conformance-state-'));
    const config = (stateFile: string) =>
      runConfig({
        seed: 1,
        runs: 1,
        ruleFilter: ['id.ref-id.sequential-duplicate'],
        baseUrl: s.baseUrl,
        auth: { kind: 'static', token: s.staticToken },
        fiatAccountIds: s.fiatAccountIds,
        stateFile,
      });
    for (const [name, text, why] of [
      ['broken.json', '{"kind": ', /is not JSON/],
      ['foreign.json', '{"kind": "restore-journal", "version": 1}', /is not a state file of this tool \(no "kind": "conformance-identity-state"\)/],
      [
        'bad-entry.json',
        JSON.stringify({ kind: STATE_KIND, version: 1, users: [{ target: 'x', user: 'y', identities: [{ refId: 1 }] }] }),
        /users\[0\]\.identities\[0\] is malformed/,
      ],
    ] as const) {
      const file = path.join(dir, name);
      await writeFile(file, text);
      const error = await orchestrateRun(config(file), { reports: false }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as Error).message).toMatch(why);
    }
  });
});

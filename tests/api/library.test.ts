/** The library API (src/api): what a QA engineer's own tests rely on, against the embedded server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  RULES,
  UsageError,
  arbitraries,
  casesForRule,
  checkExchange,
  connectTarget,
  createClient,
  failedChecks,
  fc,
  rulesWithCases,
  runConformance,
  schemaNames,
  startReferenceServer,
  validRequest,
  validateSchema,
  type ConnectedTarget,
} from '../../src/api/index.ts';
import { mergeShardReports } from '../../src/api/report.ts';
// Not the package's: how the options resolve, held beside the command line's flags.
import { resolveOptions } from '../../src/api/run-conformance.ts';
import { resolveRunConfig } from '../../src/run/run-config.ts';
import { REPORT_FOLDER } from '../cli/binary.ts';

describe('runConformance', () => {
  it('runs the rules asked for against the embedded server: conformant, exit 0', async () => {
    const result = await runConformance({ rules: ['fa.metadata'], profile: 'quick', seed: 7 });
    expect(result.report.summary.verdict).toBe('conformant');
    expect(result.exitCode).toBe(0);
    expect(result.report.rules.map((r) => r.id).every((id) => id.startsWith('fa.metadata'))).toBe(true);
    expect(result.rule('fa.metadata.max-pairs-accepted')?.status).toBe('passed');
    expect(result.reportFiles).toEqual([]);
  });

  it('finds an injected fault: the faulty rule fails, non-conformant, exit 1', async () => {
    const result = await runConformance({ rules: ['fa.metadata'], profile: 'quick', seed: 7, fault: 'metadata-exact-pairs-rejected' });
    expect(result.rule('fa.metadata.max-pairs-accepted')?.status).toBe('failed');
    expect(result.report.summary.verdict).toBe('non-conformant');
    expect(result.exitCode).toBe(1);
  });

  it('writes every report file when given a folder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'library-reports-'));
    try {
      const result = await runConformance({ rules: ['id.tax'], profile: 'quick', reportDir: dir });
      // The report files, and the restore journal written before the first write.
      expect((await readdir(dir)).sort()).toEqual(REPORT_FOLDER);
      expect(result.reportFiles).toHaveLength(6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs shards whose merged report has the statuses and verdict of the unsharded run', async () => {
    const options = { rules: ['fa.metadata'], profile: 'quick' as const, seed: 21 };
    const whole = await runConformance(options);
    const shards = await Promise.all(['1/2', '2/2'].map((shard) => runConformance({ ...options, shard })));
    const merged = mergeShardReports(shards.map((s, i) => ({ name: `shard ${i + 1}`, report: s.report })));
    expect(merged.summary.verdict).toBe(whole.report.summary.verdict);
    expect(merged.rules.map((r) => [r.id, r.status])).toEqual(whole.report.rules.map((r) => [r.id, r.status]));
  });

  it('leaves a report when the target cannot be reached, then throws the error with its exit code', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'library-unreachable-'));
    try {
      const run = runConformance({ baseUrl: 'http://127.0.0.1:9', token: 'T', fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'], reportDir: dir });
      await expect(run).rejects.toMatchObject({ exitCode: 3 });
      const report = JSON.parse(await readFile(path.join(dir, 'conformance.json'), 'utf8'));
      expect(report.summary.verdict).toBe('error');
      expect(report.rules.every((r: { status: string }) => r.status === 'skipped')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops when its signal aborts: the report says interrupted, with the exit code of the signal its reason names', async () => {
    const controller = new AbortController();
    controller.abort('SIGTERM');
    const result = await runConformance({ rules: ['fa.metadata'], profile: 'quick', seed: 7, signal: controller.signal });
    expect(result.report.summary.verdict).toBe('interrupted');
    expect(result.report.stopped).toMatchObject({ kind: 'interrupted', signal: 'SIGTERM' });
    expect(result.exitCode).toBe(143);
  });

  it('resolves its options exactly as `conformance run` resolves the same flags', () => {
    const options = {
      baseUrl: 'https://sandbox.example.com',
      token: 'T',
      fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'],
      rules: ['id.'],
      seed: 5,
      strict: true,
      concurrency: 3,
    };
    const flags = [
      '--base-url',
      'https://sandbox.example.com',
      '--token',
      'T',
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--rule',
      'id.',
      '--seed',
      '5',
      '--strict',
      '--concurrency',
      '3',
    ];
    expect(resolveOptions(options)).toEqual(resolveRunConfig(flags, {}, () => 1));
    // The environment fills only what the options leave unset.
    expect(resolveOptions({ seed: 5, env: { CONFORMANCE_SEED: '9', CONFORMANCE_PROFILE: 'deep' } })).toMatchObject({ seed: 5, profile: 'deep' });
  });

  it('refuses a bad setting with a UsageError that says what to do', async () => {
    await expect(runConformance({ baseUrl: 'https://sandbox.example.com', token: 'T' })).rejects.toThrow(/fiat account id/);
    expect(() => resolveOptions({ rules: ['nope'] })).toThrow(UsageError);
  });
});

describe('arbitraries and the cases of a rule', () => {
  it('generates valid bodies only: each validates against its request schema', () => {
    for (const body of fc.sample(arbitraries.updateFiatAccountBody, { numRuns: 100, seed: 3 }))
      expect(validateSchema('update-fiat-account-request', body)).toEqual([]);
    for (const body of fc.sample(arbitraries.createIdentityBody, { numRuns: 100, seed: 3 }))
      expect(validateSchema('create-identity-request', body)).toEqual([]);
  });

  it('gives a rule its boundary examples and random cases, each naming the rule', () => {
    const over = casesForRule('fa.metadata.over-pairs-rejected');
    expect(over.examples.length).toBeGreaterThan(0);
    expect(over.examples.every((c) => c.violates === 'fa.metadata.over-pairs-rejected')).toBe(true);
    const sampled = fc.sample(over.arbitrary!, { numRuns: 20, seed: 1 });
    expect(sampled.every((c) => c.mode === 'invalid' && Object.keys((c.body as { metadata: object }).metadata).length > 6)).toBe(true);
    expect(rulesWithCases()).toContain('id.tax.absent-rejected');
  });

  it('refuses an unknown rule and a rule without cases of its own', () => {
    expect(() => casesForRule('fa.nope')).toThrow(/no rule id/);
    expect(() => casesForRule('fa.response.schema')).toThrow(/judges every exchange/);
  });
});

describe('checks, schemas and the client', () => {
  let target: ConnectedTarget;
  beforeAll(async () => {
    target = await connectTarget();
  });
  afterAll(() => target.close());

  it('connects to the embedded server when no target is given', () => {
    expect(target.embedded).toBe(true);
    expect(target.fiatAccountIds.length).toBeGreaterThan(0);
  });

  it('judges an exchange of its own with every check: a faithful answer passes all of them', async () => {
    const exchange = await target.client.send(validRequest('updateFiatAccount', { metadata: { a: 'b' } }, { fiatAccountId: target.fiatAccountIds[0] }));
    const judgements = checkExchange(exchange, { fiatAccountIds: target.fiatAccountIds });
    expect(judgements.map((j) => j.rule.id)).toContain('fa.response.schema');
    expect(failedChecks(judgements)).toEqual([]);
    expect(validateSchema('fiat-account', exchange.response?.body)).toEqual([]);
  });

  it('names the rule an unfaithful answer breaks', async () => {
    const server = await startReferenceServer({ fault: 'fa-status-lowercase' });
    try {
      const client = createClient({
        baseUrl: server.baseUrl,
        clientCredentials: { tokenUrl: server.tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret },
      });
      const exchange = await client.send(validRequest('updateFiatAccount', {}, { fiatAccountId: server.fiatAccountIds[0] }));
      const failed = failedChecks(checkExchange(exchange));
      expect(failed.some((line) => line.startsWith('fa.status.enum'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a client with a bad URL or two kinds of credentials', () => {
    expect(() => createClient({ baseUrl: 'ftp://x' })).toThrow(UsageError);
    expect(() =>
      createClient({ baseUrl: 'http://127.0.0.1:1', token: 't', clientCredentials: { tokenUrl: 'http://127.0.0.1:1/t', clientId: 'a', clientSecret: 'b' } }),
    ).toThrow(/not both/);
    expect(() => validRequest('updateFiatAccount', {})).toThrow(/fiatAccountId/);
  });

  it('lists the schemas and the rules', () => {
    expect(schemaNames()).toEqual(expect.arrayContaining(['fiat-account', 'identity', 'create-identity-request', 'update-fiat-account-request']));
    expect(RULES.length).toBeGreaterThan(40);
  });
});

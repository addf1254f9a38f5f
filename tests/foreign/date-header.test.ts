/**
 * fa.updated-at.moves against targets whose Date is not the database's clock: the real CLI, the
 * reference server behind a front tier that drops the Date header or sends its own a second
 * behind. No Date is no finding (the rule says why it judged nothing); a lagging Date passes a
 * faithful server and still catches an updated_at that never moves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import { conformance, readReport, reportDir } from '../cli/binary.ts';
import { startDateProxy } from './date-proxy.ts';
import type { Listening } from './loopback-listen.ts';

const started: { reference: ReferenceServer; proxy: Listening }[] = [];
afterEach(async () => {
  for (const { reference, proxy } of started.splice(0)) {
    await proxy.close();
    await reference.close();
  }
});

async function runBehind(shiftMs: number | undefined, fault?: 'fa-updated-at-frozen-fresh') {
  const reference = await createReferenceServer(fault ? { fault } : {});
  const proxy = await startDateProxy(reference.baseUrl, shiftMs);
  started.push({ reference, proxy });
  const dir = reportDir();
  const args = [
    'run',
    '--base-url',
    proxy.url,
    '--token',
    reference.staticToken,
    '--profile',
    'quick',
    '--seed',
    '3',
    '--report-dir',
    dir,
    '--rule',
    'fa.updated-at.moves',
  ];
  for (const id of reference.fiatAccountIds) args.push('--fiat-account-id', id);
  const { code, stdout, stderr } = await conformance(args);
  const rule = readReport(dir).rules.find((r) => r.id === 'fa.updated-at.moves');
  return { code, output: stdout + stderr, rule };
}

describe('updated_at against the Date of a front tier', () => {
  it('judges nothing on a target whose answers carry no Date, and says so: no failure', async () => {
    const { rule } = await runBehind(undefined);
    expect(rule?.status).toBe('inconclusive');
    expect(rule?.failures).toEqual([]);
    expect(rule?.reason).toContain("the target's answers carry no Date header: nothing tells what its clock read; make the target send a Date header");
  });

  it('passes a faithful server behind a front tier whose clock is a second behind', async () => {
    const { code, output, rule } = await runBehind(-1000);
    expect(code, output).toBe(0);
    expect(rule?.status).toBe('passed');
    expect(rule?.cases).toBe(2);
  });

  it('fails a server made fresh whose updated_at never moves, behind the same lagging front tier', async () => {
    const { code, rule } = await runBehind(-1000, 'fa-updated-at-frozen-fresh');
    expect(code).toBe(1);
    expect(rule?.status).toBe('failed');
    expect(rule?.failures[0]?.message).toMatch(/of an update that changed first_name to "Mary" is before the request/);
  });
});

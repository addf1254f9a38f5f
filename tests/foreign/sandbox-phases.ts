/**
 * Where the restore's phases fall in one account's requests, as the sandbox counts them (`nth` per
 * method and account): learned from a run without faults (its exchanges.har marks each restore
 * request with its step), so a fault rule can hit exactly the start read, the run's first write,
 * the end read, the write-back or the read-back of the next, identical run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxRequest } from './sandbox-target.ts';

export type Phase = 'start-read' | 'write' | 'end-read' | 'write-back' | 'read-back';
export const PHASES: readonly Phase[] = ['start-read', 'write', 'end-read', 'write-back', 'read-back'];

export interface PhaseRequest {
  method: 'GET' | 'PUT';
  nth: number;
}

interface HarEntry {
  request: { method: string; url: string };
  _case?: { restore?: string };
}

/** Each phase's first request to `accountId` in the run whose report folder is `reportDir`. */
export function phasesOf(reportDir: string, accountId: string): Record<Phase, PhaseRequest> {
  const har = JSON.parse(readFileSync(path.join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } };
  const counts = { GET: 0, PUT: 0 };
  const found: Partial<Record<Phase, PhaseRequest>> = {};
  for (const e of har.log.entries) {
    if (!e.request.url.endsWith(`/v2/transfer/fiat-accounts/${accountId}`)) continue;
    const method = e.request.method as 'GET' | 'PUT';
    if (method !== 'GET' && method !== 'PUT') continue;
    const nth = ++counts[method];
    const phase = (e._case?.restore ?? (method === 'PUT' ? 'write' : undefined)) as Phase | undefined;
    if (phase && !found[phase]) found[phase] = { method, nth };
  }
  for (const phase of PHASES) if (!found[phase]) throw new Error(`the run without faults had no ${phase} of ${accountId}`);
  return found as Record<Phase, PhaseRequest>;
}

/** A fault rule's match for that phase's request to that account. */
export const atPhase =
  (accountId: string, at: PhaseRequest) =>
  (req: SandboxRequest): boolean =>
    req.accountId === accountId && req.method === at.method && req.nth === at.nth;

/**
 * What a guest run left: each account as the sandbox held it before (updated_at left out), or each
 * field that differs named in the report (`restore.accounts[].notRestored`) with a reason, the
 * account counted as left changed, and the run exiting 5 (or a code that takes precedence).
 */
import { expect } from 'vitest';
import type { RestoredAccount } from '../../src/engine/restore/restore-summary.ts';
import type { RunOutcome } from '../../src/run/orchestrate-run.ts';
import type { SandboxAccount, SandboxTarget } from './sandbox-target.ts';

type Content = Omit<SandboxAccount, 'updated_at'>;

/** The record without its update time: what a restore must give back. */
export const content = ({ updated_at: _moved, ...rest }: SandboxAccount): Content => rest;
export const contents = (t: SandboxTarget): Content[] => t.accountIds.map((id) => content(t.snapshot(id)));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaves of the wire object by dotted path. */
function leaves(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isObject(value)) for (const [k, v] of Object.entries(value)) leaves(v, `${prefix}.${k}`, out);
  else out.set(prefix, value);
}

/** A record's fields, each with the names the report may give it (the sample's placement or the top one). */
function fields(a: Partial<Content>): Map<string, { value: unknown; names: (reported: string) => boolean }> {
  const out = new Map<string, { value: unknown; names: (reported: string) => boolean }>();
  const key = (k: string) => [`.${k}`, `[${JSON.stringify(k)}]`];
  for (const n of ['first_name', 'last_name'] as const) out.set(n, { value: a[n], names: (r) => r.endsWith(`person_details.${n}`) });
  out.set('status', { value: a.status, names: (r) => r === 'status' || r.endsWith('fiat_network_instructions.status') });
  for (const [k, v] of Object.entries(a.metadata ?? {})) out.set(`metadata${key(k)[0]}`, { value: v, names: (r) => key(k).some((s) => r === `metadata${s}`) });
  for (const [k, v] of Object.entries(a.instruction_metadata ?? {}))
    out.set(`instruction_metadata${key(k)[0]}`, { value: v, names: (r) => key(k).some((s) => r.endsWith(`fiat_network_instructions.metadata${s}`)) });
  const wire = new Map<string, unknown>();
  leaves(a.wire ?? {}, 'wire', wire);
  for (const [p, v] of wire) if (p !== 'wire') out.set(p, { value: v, names: (r) => r.endsWith(p) });
  return out;
}

/** The fields (sandbox names) that differ between two records, updated_at left out. */
export function changedFields(before: Content, after: Content): { field: string; names: (reported: string) => boolean }[] {
  const [a, b] = [fields(before), fields(after)];
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((f) => JSON.stringify(a.get(f)?.value) !== JSON.stringify(b.get(f)?.value))
    .map((field) => ({ field, names: (a.get(field) ?? b.get(field))!.names }));
}

const KEPT = new Set(['restored', 'unchanged', 'left-alone']);

/**
 * The statement every combination makes: each account equal to before and reported so, or left
 * changed with each changed field named (with its reason) and the run exiting 5. Returns, per
 * account, the sandbox fields that differ and what the report said of it.
 */
export function expectAsFoundOrNamed(t: SandboxTarget, before: Content[], outcome: RunOutcome): { changed: string[]; said: RestoredAccount }[] {
  const restore = outcome.report.restore;
  expect(restore?.enabled, 'the restore ran').toBe(true);
  return t.accountIds.map((id, i) => {
    const changed = changedFields(before[i], content(t.snapshot(id)));
    const said = restore!.accounts.find((a) => a.id === id)!;
    expect(said, `the report names account ${i + 1}`).toBeDefined();
    if (!changed.length) {
      expect(KEPT.has(said.outcome), `account ${i + 1} is as found and reported ${said.outcome}`).toBe(true);
      return { changed: [], said };
    }
    expect(KEPT.has(said.outcome), `account ${i + 1} changed (${changed.map((c) => c.field).join(', ')}) but reported ${said.outcome}`).toBe(false);
    // A code of higher precedence (an interrupt 130, a stop 3, a usage error 2, a failure 1) may stand instead of 5.
    expect([5, 1, 2, 3, 130, 143]).toContain(outcome.exitCode);
    if (said.outcome !== 'unknown')
      for (const c of changed) {
        const note = said.notRestored.find((n) => c.names(n.field));
        expect(note, `account ${i + 1}: ${c.field} changed and named in notRestored`).toBeDefined();
        expect(note!.reason.length).toBeGreaterThan(10);
      }
    else expect(said.reason).toMatch(/may be changed|cannot tell/);
    return { changed: changed.map((c) => c.field), said };
  });
}

/** Every account equal to before, reported restored or unchanged, and no exit 5. */
export function expectAsFound(t: SandboxTarget, before: Content[], outcome: RunOutcome): void {
  const results = expectAsFoundOrNamed(t, before, outcome);
  expect(contents(t)).toEqual(before);
  expect(results.every((r) => r.said.outcome === 'restored' || r.said.outcome === 'unchanged')).toBe(true);
  expect(outcome.exitCode).not.toBe(5);
}

/**
 * A used ref_id in another letter case (docs/design.md section 2): a target that keeps ref_ids
 * unique without regard to case refuses it, which is its limit, recorded and never blamed; a
 * target that gives back the other ref_id's identity conflates two ref_ids and fails.
 */
import { describe, expect, it } from 'vitest';
import { runEmbedded } from '../../src/run/embedded-run.ts';

const caseLimit = (report: Awaited<ReturnType<typeof runEmbedded>>['report']) =>
  report.observedContract?.limits.find((l) => l.field === 'ref_id' && l.kind === 'letter-case');

describe('a used ref_id in another letter case', () => {
  it('refused by a case-insensitive target: the observed contract says so, and the run is conformant', async () => {
    const { report } = await runEmbedded({ reading: { refIdCase: 'insensitive' }, runs: 3, seed: 5, strict: true });
    expect(report.rules.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
    expect(report.summary.verdict).toBe('conformant');
    expect(caseLimit(report)?.refused.map((r) => [r.value, r.status])).toEqual([['a used ref_id in another letter case', 409]]);
  });

  it('accepted by an exact target as a new identity: listed as accepted', async () => {
    const { report } = await runEmbedded({ runs: 3, seed: 5 });
    expect(caseLimit(report)?.accepted).toEqual(['a used ref_id in another letter case']);
    expect(report.rules.find((r) => r.id === 'id.distinct-identities')?.status).toBe('passed');
  });

  it('answered with the identity of the other ref_id: id.distinct-identities fails', async () => {
    const { report } = await runEmbedded({ fault: 'id-ref-id-case-folded', runs: 3, seed: 5 });
    expect(report.rules.find((r) => r.id === 'id.distinct-identities')?.status).toBe('failed');
  });
});

/** CreatedIdentities: every identity id is told apart, but only a bounded few are kept whole. */
import { describe, expect, it } from 'vitest';
import { CreatedIdentities } from '../../../src/rules/create-identity/created-identities.ts';
import type { Exchange } from '../../../src/core/exchange.ts';

const create = (refId: string, id: string): Exchange => ({
  testCase: { operation: 'createIdentity', mode: 'valid', label: 'create', body: { ref_id: refId, tax_details_not_required: true } },
  request: { method: 'POST', url: 'http://t/v2/identity/identities', headers: {} },
  response: { status: 201, headers: {}, rawBody: '', json: true, body: { id } },
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
});

describe('CreatedIdentities', () => {
  it('counts every create but keeps only the first and the latest whole', () => {
    const created = new CreatedIdentities();
    for (let i = 0; i < 1000; i++) expect(created.observe(create(`ref-${i}`, `id-${i}`))).toEqual([]);
    expect(created.size).toBe(1000);
    expect(created.distinctIds).toBe(1000);
    const kept = created.list();
    expect(kept.length).toBeLessThanOrEqual(32);
    expect(kept[0]).toMatchObject({ refId: 'ref-0', id: 'id-0', body: { ref_id: 'ref-0' } });
    expect(created.get('ref-999')).toMatchObject({ id: 'id-999' });
    expect(created.get('ref-500')).toBeUndefined();
  });

  it('still tells an identity given twice, however long ago it was first created', () => {
    const created = new CreatedIdentities();
    created.observe(create('ref-a', 'shared'));
    for (let i = 0; i < 100; i++) created.observe(create(`ref-${i}`, `id-${i}`));
    expect(created.observe(create('ref-b', 'shared'))).toEqual([
      {
        message: 'ref_id ref-b got identity shared, already created for ref_id ref-a',
        instancePath: '/id',
        kind: 'identity-shared',
        params: { field: '/id', refId: 'ref-b', id: 'shared', firstRefId: 'ref-a' },
      },
    ]);
    expect(created.distinctIds).toBeLessThan(created.size);
  });

  it('keeps an absurdly long id as a digest and shows it cut', () => {
    const created = new CreatedIdentities();
    const long = 'i'.repeat(100_000);
    created.observe(create('ref-a', long));
    const [problem] = created.observe(create('ref-b', long))!;
    expect(problem.message.length).toBeLessThan(300);
    expect(JSON.stringify(problem.params).length).toBeLessThan(300);
    expect(created.get('ref-a')?.id.length).toBeLessThan(200);
    expect(created.get('ref-a')?.key.length).toBeLessThan(64);
  });
});

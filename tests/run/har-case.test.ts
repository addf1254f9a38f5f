/** The case of a HAR entry: the three body-less shapes of the empty-body checks come back as they were sent. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { harEntry } from '../../src/report/files/har.ts';
import { caseOfEntry } from '../../src/run/har-case.ts';

const URL_OF_ACCOUNT = 'http://127.0.0.1:1/v2/transfer/fiat-accounts/6f1c2b1e-8a3d-4c5e-9f70-1a2b3c4d5e6f';

function recorded(testCase: TestCase, headers: Record<string, string>, body: { rawBody?: string }): Exchange {
  return {
    testCase,
    request: { method: 'PUT', url: URL_OF_ACCOUNT, headers, ...body },
    response: { status: 400, headers: {}, rawBody: '', json: false },
    startedAt: '2026-11-27T06:00:00Z',
    durationMs: 1,
  };
}

const around = (label: string, extra: Partial<TestCase>): TestCase => ({
  operation: 'updateFiatAccount',
  mode: 'valid',
  label,
  around: 'fa.empty-body',
  ...extra,
});

describe('a HAR entry of the empty-body checks', () => {
  it('rebuilds the body-less JSON request, the missing body and the empty body each as itself', () => {
    const json = { 'content-type': 'application/json' };
    const bodyless = caseOfEntry(harEntry(recorded(around('bodyless', { bodylessJson: true }), json, {})));
    const missing = caseOfEntry(harEntry(recorded(around('missing', {}), {}, {})));
    const empty = caseOfEntry(harEntry(recorded(around('empty', { rawBody: '' }), json, { rawBody: '' })));
    expect(bodyless).toMatchObject({ testCase: { bodylessJson: true, around: 'fa.empty-body' } });
    expect(missing).toMatchObject({ testCase: { around: 'fa.empty-body' } });
    expect(missing).not.toHaveProperty('testCase.bodylessJson');
    expect(empty).toMatchObject({ testCase: { rawBody: '' } });
    expect(empty).not.toHaveProperty('testCase.bodylessJson');
  });
});

/**
 * How to add tests of one's own beside the catalogue's suites, with the library API only: a few
 * rules judged by the harness, and a fast-check property of one's own against the same target
 * (CONFORMANCE_BASE_URL and friends from .env; the embedded server when none is set). fast-check
 * prints the seed and path of a failing property; the harness's assertion prints the evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbitraries, checkExchange, connectTarget, failedChecks, fc, validRequest, validateSchema, type ConnectedTarget } from 'fiat-identity-conformance';
import { expectRulePassed, runRules } from 'fiat-identity-conformance/vitest';

describe('own tests', () => {
  it('the metadata limits hold (six pairs of 100 characters in, seven or 101 out)', async () => {
    const result = await runRules(['fa.metadata'], { profile: 'quick' });
    for (const rule of result.report.rules) expectRulePassed(result, rule.id);
  });

  describe('any valid update, sent by our own property', () => {
    let target: ConnectedTarget;
    beforeAll(async () => {
      target = await connectTarget({ env: process.env });
    });
    afterAll(() => target?.close());

    it('is accepted and answered with a fiat account of the documented shape', async () => {
      await fc.assert(
        fc.asyncProperty(arbitraries.updateFiatAccountBody, async (body) => {
          const exchange = await target.client.send(validRequest('updateFiatAccount', body, { fiatAccountId: target.fiatAccountIds[0] }));
          expect(failedChecks(checkExchange(exchange, { fiatAccountIds: target.fiatAccountIds }))).toEqual([]);
          expect(validateSchema('fiat-account', exchange.response?.body)).toEqual([]);
        }),
        { numRuns: 25 },
      );
    });
  });
});

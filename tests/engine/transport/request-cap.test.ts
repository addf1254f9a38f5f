/** The request budget at the wire: no request past it goes, retries count, the reserve is kept for housekeeping. */
import { describe, expect, it } from 'vitest';
import { RequestBudget, checkBudget, smallestBudget } from '../../../src/engine/request-budget.ts';
import { requestCap } from '../../../src/engine/transport/request-cap.ts';
import { retry429 } from '../../../src/engine/transport/retry-429.ts';
import { RunStop } from '../../../src/engine/run-stop.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { fakeSend, request, response } from './fake-send.ts';

describe('requestCap', () => {
  it('sends up to the budget, then refuses without calling next: RunStop budget, the refusal counted', async () => {
    const next = fakeSend();
    const budget = new RequestBudget(3);
    const send = requestCap(budget)(next);
    for (let i = 0; i < 3; i++) await send(request());
    const refused = await send(request()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RunStop);
    expect((refused as RunStop).kind).toBe('budget');
    expect((refused as RunStop).message).toMatch(
      /^the request budget \(--max-requests 3\) was spent after 3 requests: POST \/v2\/identity\/identities was not sent$/,
    );
    expect(next.calls).toHaveLength(3);
    expect(budget.summary(3, [])).toEqual({ maxRequests: 3, reserved: 0, planned: 3, used: 3, refused: 1, trimmed: [] });
  });

  it('counts each 429 retry, so retries cannot overrun it', async () => {
    const tooMany = { response: response(429, { 'retry-after': '0' }) };
    const next = fakeSend(tooMany, tooMany, tooMany, 200);
    const budget = new RequestBudget(2);
    const send = retry429(5)(requestCap(budget)(next));
    await expect(send(request())).rejects.toBeInstanceOf(RunStop);
    expect(next.calls).toHaveLength(2);
  });

  it('keeps the reserve for the housekeeping, which spends it first, then what is left, and past the cap is never refused', async () => {
    const next = fakeSend();
    const budget = new RequestBudget(5, 2);
    const send = requestCap(budget)(next);
    const housekeeping = requestCap(budget, true)(next);
    await send(request());
    await send(request());
    await send(request());
    expect(budget.left).toBe(0);
    await expect(send(request())).rejects.toBeInstanceOf(RunStop);
    await housekeeping(request());
    await housekeeping(request());
    // A restore that a failing target made retry goes on past the cap rather than leave an account changed, and is counted.
    await housekeeping(request());
    expect(budget.beyond).toBe(1);
    expect(next.calls).toHaveLength(6);
  });

  it('lets the housekeeping spend what the phases left once its reserve is gone', async () => {
    const next = fakeSend();
    const budget = new RequestBudget(4, 1);
    const housekeeping = requestCap(budget, true)(next);
    await housekeeping(request());
    await housekeeping(request());
    expect(budget.left).toBe(2);
    expect(next.calls).toHaveLength(2);
  });

  it('is no layer at all without a budget', async () => {
    const next = fakeSend();
    for (let i = 0; i < 5; i++) await requestCap(undefined)(next)(request());
    expect(next.calls).toHaveLength(5);
  });
});

describe('the smallest budget', () => {
  it('holds the reachability check (an answer, then a warm round trip), a read of each account, the two metadata probes and the reserve', () => {
    expect(smallestBudget(3, 0)).toBe(7);
    expect(smallestBudget(2, 8)).toBe(14);
    expect(() => checkBudget({ maxRequests: 7, reserved: 0 }, 3)).not.toThrow();
    expect(() => checkBudget({ maxRequests: 6, reserved: 0 }, 3)).toThrow(UsageError);
    expect(() => checkBudget({ maxRequests: 13, reserved: 8 }, 2)).toThrow(/give --max-requests 14 or more/);
  });
});

/**
 * A fake `next` for testing one transport layer alone: answers each call with the next scripted
 * status (the last one repeats) and keeps the requests it was given.
 */
import type { UnauthenticatedKind } from '../../../src/core/case.ts';
import type { Outcome, Request, Send } from '../../../src/engine/transport/send.ts';

export interface FakeSend extends Send {
  calls: Request[];
}

export function fakeSend(...answers: (number | Omit<Outcome, 'request'>)[]): FakeSend {
  const calls: Request[] = [];
  const send = async (request: Request): Promise<Outcome> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? 200;
    calls.push(request);
    return typeof answer === 'number' ? { request, response: response(answer) } : { request, ...answer };
  };
  return Object.assign(send, { calls });
}

export const response = (status: number, headers: Record<string, string> = {}) => ({ status, headers, rawBody: '', json: false });

export const request = (auth?: UnauthenticatedKind): Request => ({
  method: 'POST',
  url: 'http://target/v2/identity/identities',
  headers: { 'content-type': 'application/json' },
  body: '{}',
  ...(auth ? { auth } : {}),
});

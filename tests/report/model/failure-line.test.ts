import { describe, expect, it } from 'vitest';
import { composeFailureLine, shortenMessage } from '../../../src/report/model/failure-line.ts';
import { ruleLine } from '../../../src/report/terminal/console.ts';
import type { ReportRule } from '../../../src/report/model/model.ts';

const length = (s: string) => [...s].length;
const LABEL = `person_details.address.address1 ${'x'.repeat(150)}`;
const MESSAGE = `${LABEL}: a valid request was not accepted (HTTP 422)`;
const WORDS = `is required (at person_details.address.country) ${'y'.repeat(80)}`;

describe('a failure line', () => {
  it('keeps a message that fits whole, and shortens the quote to the room left', () => {
    const line = composeFailureLine('a valid request was not accepted (HTTP 422)', WORDS, 100);
    expect(line.startsWith('a valid request was not accepted (HTTP 422) — target said: "is required (at person_details')).toBe(true);
    expect(length(line)).toBeLessThanOrEqual(100);
    expect(line.endsWith('…"')).toBe(true);
  });

  it('cuts the case label inside the message before the status, and keeps room for the quote', () => {
    const line = composeFailureLine(MESSAGE, WORDS, 160, LABEL);
    expect(length(line)).toBeLessThanOrEqual(160);
    expect(line).toContain(': a valid request was not accepted (HTTP 422) — target said: "is required (at ');
    expect(line.startsWith('person_details.address.address1 xx')).toBe(true);
  });

  it('cuts a message with no label from the middle, never its status', () => {
    const message = `the server answered ${'z'.repeat(200)} with HTTP 500`;
    const cut = shortenMessage(message, 80);
    expect(length(cut)).toBe(80);
    expect(cut.endsWith('with HTTP 500')).toBe(true);
    expect(cut.startsWith('the server answered')).toBe(true);
  });

  it('is the message alone when the target said nothing or the message quotes its words already', () => {
    expect(composeFailureLine('refused: is required', 'is required', 200)).toBe('refused: is required');
    expect(composeFailureLine('no answer (timeout)', undefined, 200)).toBe('no answer (timeout)');
    expect(composeFailureLine(MESSAGE, WORDS)).toBe(`${MESSAGE} — target said: "${WORDS}"`);
  });

  it('on the console: a long label does not push the status out of the line', () => {
    const rule: ReportRule = {
      id: 'id.valid-accepted',
      operation: 'createIdentity',
      section: '4.2',
      basis: 'documented',
      title: 'A valid create request is accepted (2xx)',
      status: 'failed',
      blocking: true,
      cases: 3,
      failures: [
        {
          message: MESSAGE,
          case: { operation: 'createIdentity', label: LABEL, mode: 'valid', intent: 'guaranteed' },
          request: { method: 'POST', url: 'http://127.0.0.1:1/v2/identity/identities', headers: {}, body: {} },
          response: {
            status: 422,
            headers: { 'content-type': 'application/json' },
            rawBody: '',
            json: true,
            body: { message: 'canned text', validation: [{ field: 'person_details.address.country', message: 'is required' }] },
          },
          curl: 'curl',
          seed: 1,
        },
      ],
    };
    const line = ruleLine(rule);
    expect(line).toContain(': a valid request was not accepted (HTTP 422) — target said: "is required (at person_detail');
    expect(line).not.toContain('canned text');
  });
});

/** Where a personal value counts as found: never inside a longer number, which is some other value the report judged. */
import { describe, expect, it } from 'vitest';
import { PersonalRedaction, redactMember } from '../../../../src/report/files/bundle/personal-redaction.ts';
import { StandIns } from '../../../../src/report/files/bundle/stand-ins.ts';

const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T\d{2}:\d{2}:\d{2}Z$/;

/** A HAR line as a --runs 5000 run wrote it: a sort code that is also the tail of a day, and a timestamp of that day. */
const harLine = (sortCode: string, verifiedAt: string): string =>
  JSON.stringify({
    request: { postData: { text: JSON.stringify({ routing_details: { routing_number_type: 'SORT_CODE', routing_number: sortCode } }) } },
    response: { content: { text: JSON.stringify({ person_details: { passthrough_verified_at: verifiedAt } }) } },
  });

describe('PersonalRedaction of a value that stands inside a longer number', () => {
  it('leaves a timestamp whole when a sort code spells the tail of its day, and replaces the sort code', () => {
    for (const salt of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const redaction = PersonalRedaction.of(['19-10-04', 'Lovelace'], new StandIns(Buffer.alloc(32, salt)));
      const line = harLine('19-10-04', '2019-10-04T21:25:44Z');
      const redacted = JSON.parse(redactMember(redaction, 'exchanges.har', line)) as {
        request: { postData: { text: string } };
        response: { content: { text: string } };
      };
      const verifiedAt = (JSON.parse(redacted.response.content.text) as { person_details: { passthrough_verified_at: string } }).person_details
        .passthrough_verified_at;
      // Before the fix the day became "2067-50-00": month 50, no RFC 3339 date, a false failure on re-judging.
      expect(verifiedAt).toBe('2019-10-04T21:25:44Z');
      expect(verifiedAt).toMatch(RFC3339);
      const sortCode = (JSON.parse(redacted.request.postData.text) as { routing_details: { routing_number: string } }).routing_details.routing_number;
      expect(sortCode).toMatch(/^[1-9]\d-\d\d-\d\d$/);
      expect(sortCode).not.toBe('19-10-04');
    }
  });

  it('still replaces a value glued to letters, punctuation or an escape, and one that is a whole number', () => {
    const redaction = PersonalRedaction.of(['123456789', '19-10-04'], new StandIns(Buffer.alloc(32, 3)));
    for (const text of ['acct123456789', '"123456789"', 'Jos\\u00e9123456789', 'Jos%C3%A9123456789', 'code:19-10-04.', '123456789\\u00e9']) {
      const redacted = redaction.redact(text, 'x.txt');
      expect(redacted, text).not.toContain('123456789');
      expect(redacted, text).not.toContain('19-10-04');
    }
  });

  it('leaves a longer number alone on either side: it is another value', () => {
    const redaction = PersonalRedaction.of(['123456789'], new StandIns(Buffer.alloc(32, 4)));
    for (const text of ['01234567890', '1234567890', '0123456789', '"1764123456789"']) expect(redaction.redact(text, 'x.txt')).toBe(text);
  });

  it('never gives a stand-in that shows an original inside a longer number', () => {
    // 20,000 six-digit originals: a seven-digit draw holds one of them about once in 22.
    const sixes = Array.from({ length: 20_000 }, (_, i) => String(100_000 + ((i * 7919) % 900_000)));
    const sevens = Array.from({ length: 300 }, (_, i) => String(1_000_000 + i * 29_989));
    const standIns = new StandIns(Buffer.alloc(32, 5));
    PersonalRedaction.of([...sixes, ...sevens], standIns);
    const originals = new Set(sixes);
    const showing = sevens.map((v) => standIns.of(v)!).filter((s) => originals.has(s.slice(0, 6)) || originals.has(s.slice(1)));
    expect(showing).toEqual([]);
  });
});

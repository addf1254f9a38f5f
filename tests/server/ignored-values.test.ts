/**
 * The reading update-nulls=ignored (the vendor's OpenAPI: "Empty strings or null values are
 * ignored"): a null or an empty string in an update leaves its field as it was; by default a null
 * is a wrong type (refused) and an empty string is text (stored).
 */
import { describe, expect, it } from 'vitest';
import { startsReferenceServers } from './started-servers.ts';
import { update } from './http-client.ts';
import { withoutIgnoredValues } from '../../src/server/ignored-values.ts';

const start = startsReferenceServers();

const owner = (first_name: unknown, last_name: unknown = 'Doe') => ({ fiat_account_owner: { person_details: { first_name, last_name } } });
const names = (json: any) => json?.fiat_account_owner?.person_details;

describe('update-nulls', () => {
  it('as-typed (default): a null is refused, an empty string stored', async () => {
    const s = await start();
    expect((await update(s, owner(null))).status).toBe(400);
    const stored = await update(s, owner(''));
    expect(stored.status).toBe(200);
    expect(names(stored.json)).toEqual({ first_name: '', last_name: 'Doe' });
  });

  it('ignored: a null or an empty string leaves the field as it was, the rest of the update applies', async () => {
    for (const strict of [false, true]) {
      const s = await start({ strict, reading: { updateNulls: 'ignored' } });
      expect((await update(s, owner('Jane'))).status).toBe(200);
      for (const value of [null, '']) {
        const reply = await update(s, owner(value, 'Roe'));
        expect(reply.status).toBe(200);
        expect(names(reply.json)).toEqual({ first_name: 'Jane', last_name: 'Roe' });
      }
      expect((await update(s, { fiat_account_owner: { person_details: null } })).status).toBe(200);
    }
  });

  it('keeps the metadata pairs as sent: a null pair is still a wrong type, an empty value is text', () => {
    expect(withoutIgnoredValues({ metadata: { a: null, b: '' }, fiat_account_owner: { person_details: { first_name: null } } })).toEqual({
      metadata: { a: null, b: '' },
      fiat_account_owner: { person_details: {} },
    });
    expect(withoutIgnoredValues({ metadata: null })).toEqual({});
  });
});

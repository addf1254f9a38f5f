/**
 * HTTP around the two operations on the faithful server: other methods get 405 with Allow, an
 * empty or missing body is refused as no JSON (or taken as {} under `--reading empty-body=empty-object`),
 * and every 401 names the Bearer scheme.
 */
import { describe, expect, it } from 'vitest';
import { startsReferenceServers } from './started-servers.ts';
import { accountPath, call, create, IDENTITIES, identityBody, update } from './http-client.ts';

const start = startsReferenceServers();

describe('other methods on the two paths', () => {
  it.each([
    ['PATCH', 'account', {}],
    ['POST', 'account', {}],
    ['OPTIONS', 'account', undefined],
    ['DELETE', 'account', undefined],
    ['PUT', 'identities', identityBody()],
    ['PATCH', 'identities', identityBody()],
    ['DELETE', 'identities', undefined],
    ['GET', 'identities', undefined],
  ] as const)('%s on the %s path gets 405 with Allow, on the plain and the strict server', async (method, path, body) => {
    for (const strict of [false, true]) {
      const s = await start({ strict });
      const reply = await call(s, method, path === 'account' ? accountPath(s.fiatAccountIds[0]) : IDENTITIES, { body });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe(path === 'account' ? 'GET, PUT' : 'POST');
    }
  });

  it('changes nothing: the identity sent with PUT is not created', async () => {
    const s = await start();
    const body = identityBody();
    expect((await call(s, 'PUT', IDENTITIES, { body })).status).toBe(405);
    expect((await create(s, body)).status).toBe(201);
  });

  it('asks for credentials first: another method without a token gets 401 with the Bearer challenge', async () => {
    const s = await start();
    const reply = await call(s, 'PATCH', accountPath(s.fiatAccountIds[0]), { body: {}, token: null });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer /);
  });
});

describe('empty and missing bodies', () => {
  it.each([
    ['empty, labelled JSON', { raw: '' }],
    ['missing, no Content-Type', {}],
  ])('%s: refused with 400 by default, both operations', async (_name, options) => {
    const s = await start();
    expect((await update(s, undefined, options)).status).toBe(400);
    expect((await create(s, undefined, options)).status).toBe(400);
  });

  it.each([
    ['empty, labelled JSON', { raw: '' }],
    ['missing, no Content-Type', {}],
  ])('%s: taken as {} under empty-body=empty-object: an empty update, a create lacking tax_details', async (_name, options) => {
    for (const strict of [false, true]) {
      const s = await start({ strict, reading: { emptyBody: 'empty-object' } });
      expect((await update(s, undefined, options)).status).toBe(200);
      const refused = await create(s, undefined, options);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('tax_details');
    }
  });
});

describe('the challenge of a 401', () => {
  it.each([
    ['no token', { token: null }, 'Bearer realm="conformance-embedded"'],
    ['a wrong token', { token: 'wrong' }, 'Bearer realm="conformance-embedded", error="invalid_token"'],
    ['Basic credentials', { token: null, headers: { authorization: 'Basic dTpw' } }, 'Bearer realm="conformance-embedded", error="invalid_token"'],
  ])('%s: WWW-Authenticate names Bearer on both operations', async (_name, options, challenge) => {
    const s = await start();
    for (const reply of [await update(s, {}, options), await create(s, identityBody(), options)]) {
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe(challenge);
    }
  });
});

describe('the get operation of fiat accounts (section 1 names it)', () => {
  it('answers the stored account as the update does, and changes nothing', async () => {
    const s = await start({ reading: { placement: 'both' } });
    const id = s.fiatAccountIds[0];
    const updated = await update(s, { metadata: { team: 'ops' } }, {}, id);
    const read = await call(s, 'GET', accountPath(id));
    expect(read.status).toBe(200);
    expect(read.json).toEqual(updated.json);
    expect((await call(s, 'GET', accountPath(id))).json).toEqual(read.json);
  });

  it('answers 404 for an unknown account, and 405 (Allow: PUT) on a server started without it', async () => {
    const s = await start();
    expect((await call(s, 'GET', accountPath('3b241101-e2bb-4255-8caf-4136c566a962'))).status).toBe(404);
    const without = await start({ accountReads: false });
    const reply = await call(without, 'GET', accountPath(without.fiatAccountIds[0]));
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('PUT');
  });
});

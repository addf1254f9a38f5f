/** The DSSE envelope: the spec's PAE test vector, signing and verifying, both base64 alphabets, and what fails. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  dsseKeyId,
  envelopeLine,
  envelopeSignedBy,
  parseEnvelope,
  preAuthEncoding,
  sealEnvelope,
} from '../../../../../src/report/files/bundle/attestation/dsse-envelope.ts';
import { keyFingerprint } from '../../../../../src/report/files/bundle/signature.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

describe('the pre-authentication encoding', () => {
  it('is the test vector of protocol.md (DSSE v1.0.2), lengths in bytes', () => {
    expect(preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world')).toString('utf8')).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
    // UTF-8 bytes, not characters.
    expect(preAuthEncoding('t', Buffer.from('é')).toString('utf8')).toBe('DSSEv1 1 t 2 é');
  });
});

describe('an envelope', () => {
  const body = Buffer.from('{"_type":"https://in-toto.io/Statement/v1"}');

  it('signed verifies with its key, not another; its keyid is the SPKI SHA-256 the fingerprint starts', () => {
    const envelope = sealEnvelope(body, privateKey);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelopeSignedBy(envelope, publicKey)).toBe(true);
    expect(envelopeSignedBy(envelope, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    expect(envelope.signatures[0].keyid).toMatch(/^[0-9a-f]{64}$/);
    expect(envelope.signatures[0].keyid).toBe(dsseKeyId(publicKey));
    expect(keyFingerprint(publicKey)).toBe(`SHA256:${envelope.signatures[0].keyid.slice(0, 32)}`);
  });

  it('a changed payload or payload type no longer verifies; the keyid is never consulted', () => {
    const envelope = sealEnvelope(body, privateKey);
    const changed = Buffer.from(body);
    changed[5] ^= 1;
    expect(envelopeSignedBy({ ...envelope, payload: changed.toString('base64') }, publicKey)).toBe(false);
    expect(envelopeSignedBy({ ...envelope, payloadType: 'application/json' }, publicKey)).toBe(false);
    expect(envelopeSignedBy({ ...envelope, signatures: [{ keyid: 'someone else', sig: envelope.signatures[0].sig }] }, publicKey)).toBe(true);
  });

  it('accepts the URL-safe alphabet too (DSSE: verifiers must)', () => {
    const envelope = sealEnvelope(Buffer.from([0xfb, 0xff, 0xfe, 0x3e]), privateKey);
    const urlSafe = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_');
    expect(envelope.payload).toMatch(/[+/]/);
    expect(
      envelopeSignedBy(
        { ...envelope, payload: urlSafe(envelope.payload), signatures: [{ ...envelope.signatures[0], sig: urlSafe(envelope.signatures[0].sig) }] },
        publicKey,
      ),
    ).toBe(true);
    expect(decodeBase64('not base64!')).toBeUndefined();
  });

  it('unsigned has an empty signatures list, which nothing verifies', () => {
    const envelope = sealEnvelope(body);
    expect(envelope.signatures).toEqual([]);
    expect(envelopeSignedBy(envelope, publicKey)).toBe(false);
  });

  it('is one line of JSON, and parses back; what is no envelope says why in a line', () => {
    const line = envelopeLine(sealEnvelope(body, privateKey)).toString('utf8');
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    expect(parseEnvelope(line, 'a.jsonl')).toEqual(JSON.parse(line));
    expect(parseEnvelope('{', 'a.jsonl')).toMatch(/^a\.jsonl is not a JSON envelope/);
    expect(parseEnvelope('{"payload":"e30="}', 'a.jsonl')).toBe('a.jsonl is not a DSSE envelope: payloadType and payload must be strings');
    expect(parseEnvelope('{"payload":"e30=","payloadType":"x","signatures":[{}]}', 'a.jsonl')).toMatch(/signatures must list/);
    expect(parseEnvelope('{"payload":"%%","payloadType":"x","signatures":[]}', 'a.jsonl')).toBe('a.jsonl: payload is not base64');
  });
});

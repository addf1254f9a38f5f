/** The DSSE envelope: the spec's PAE test vector, signing and verifying, both base64 alphabets, and what fails. */
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
/** ssh-keygen, when the machine has it (OpenSSH's client): an implementation of the fingerprint that is not ours. */
const sshKeygen = (() => {
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status !== undefined;
  }
})();

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

  it('signed verifies with its key, not another; its keyid is the OpenSSH SHA-256 fingerprint of the key', () => {
    const envelope = sealEnvelope(body, privateKey);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelopeSignedBy(envelope, publicKey)).toBe(true);
    expect(envelopeSignedBy(envelope, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    expect(envelope.signatures[0].keyid).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(envelope.signatures[0].keyid).toBe(dsseKeyId(publicKey));
  });

  it.skipIf(!sshKeygen)('the keyid is what ssh-keygen -l prints for a key ssh-keygen made (the keyid cosign and in-toto-golang compute)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keyid-'));
    const file = path.join(dir, 'k');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
    const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1];
    // The raw 32 bytes end the key's wire blob (the .pub's second word); as a node key, then our keyid.
    const blob = Buffer.from(readFileSync(`${file}.pub`, 'utf8').split(' ')[1], 'base64');
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: blob.subarray(-32).toString('base64url') }, format: 'jwk' });
    expect(dsseKeyId(key)).toBe(fingerprint);
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

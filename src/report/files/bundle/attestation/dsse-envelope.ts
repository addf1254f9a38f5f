/**
 * The DSSE envelope (github.com/secure-systems-lab/dsse, envelope.md and protocol.md v1.0.2) that
 * carries the in-toto Statement: `{payloadType, payload, signatures: [{keyid, sig}]}`, each
 * signature an Ed25519 signature (node:crypto) of the Pre-Authentication Encoding of the payload
 * type and the payload's bytes. The encoding is written here (ten lines of the spec) rather than
 * taken from @sigstore/core: the test that verifies our envelopes with sigstore's verifier is a
 * cross-check only if signing and verifying do not share that code.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { publicHalf, signatureMatches, signBytes } from '../signature.ts';

/** The payload type of an in-toto Statement in JSON (in-toto attestation spec v1, envelope.md). */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** One DSSE signature: `keyid` is a hint only (never used to decide), `sig` the base64 signature. */
export interface DsseSignature {
  keyid: string;
  sig: string;
}

/** The JSON envelope. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes, ASCII decimal. */
export function preAuthEncoding(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'ascii'), type, Buffer.from(` ${body.length} `, 'ascii'), body]);
}

/**
 * The keyid of an Ed25519 key: its OpenSSH SHA-256 fingerprint (`SHA256:` and the unpadded base64
 * of the SHA-256 of its `ssh-ed25519` wire blob), what `ssh-keygen -l` prints for it. DSSE leaves
 * the derivation to the parties; this is the one go-securesystemslib computes for a verifier that
 * has a public key and no keyid (SHA256KeyID), and it skips a signature whose keyid differs: so the
 * Go verifiers under cosign and sigstore's libraries, given the public key, accept ours. A hint
 * only; never used to decide here.
 */
export function dsseKeyId(key: KeyObject): string {
  const raw = Buffer.from(String(publicHalf(key).export({ format: 'jwk' }).x), 'base64url');
  // SSH wire strings (RFC 4251): a big-endian uint32 length, then the bytes.
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const wire = Buffer.concat([field(Buffer.from('ssh-ed25519', 'ascii')), field(raw)]);
  return `SHA256:${createHash('sha256').update(wire).digest('base64').replace(/=+$/, '')}`;
}

/**
 * The envelope of `body`: signed by `signKey` when given, else with an empty `signatures` list,
 * which DSSE's parsing rules allow ("MUST be set, even if empty") and every verifier refuses
 * (a threshold of at least one signature): an unsigned bundle's statement, readable, proving nothing.
 */
export function sealEnvelope(body: Buffer, signKey?: KeyObject, payloadType = IN_TOTO_PAYLOAD_TYPE): DsseEnvelope {
  const signatures = signKey ? [{ keyid: dsseKeyId(signKey), sig: signBytes(preAuthEncoding(payloadType, body), signKey).toString('base64') }] : [];
  return { payloadType, payload: body.toString('base64'), signatures };
}

/** The envelope as its file holds it: one line of JSON and a newline (a .jsonl of one envelope). */
export const envelopeLine = (envelope: DsseEnvelope): Buffer => Buffer.from(`${JSON.stringify(envelope)}\n`, 'utf8');

/** Base64 in either alphabet (DSSE: verifiers MUST accept both), or undefined when it is neither. */
export function decodeBase64(text: string): Buffer | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return undefined;
  return Buffer.from(standard, 'base64');
}

/** The envelope in a file's text (one JSON object; a .jsonl's first non-empty line), or the line that says what is wrong. */
export function parseEnvelope(text: string, name: string): DsseEnvelope | string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `${name} is not a JSON envelope (${(error as Error).message})`;
  }
  const e = value as Partial<DsseEnvelope> | null;
  if (typeof e?.payloadType !== 'string' || typeof e.payload !== 'string') return `${name} is not a DSSE envelope: payloadType and payload must be strings`;
  if (!Array.isArray(e.signatures) || !e.signatures.every((s) => typeof s?.sig === 'string'))
    return `${name} is not a DSSE envelope: signatures must list {keyid, sig}`;
  if (decodeBase64(e.payload) === undefined) return `${name}: payload is not base64`;
  return e as DsseEnvelope;
}

/** Whether any of the envelope's signatures is `publicKey`'s over PAE(payloadType, payload); the keyid is not consulted. */
export function envelopeSignedBy(envelope: DsseEnvelope, publicKey: KeyObject): boolean {
  const body = decodeBase64(envelope.payload);
  if (!body) return false;
  const pae = preAuthEncoding(envelope.payloadType, body);
  return envelope.signatures.some((s) => {
    const sig = decodeBase64(s.sig);
    return sig !== undefined && signatureMatches(pae, sig, publicKey);
  });
}

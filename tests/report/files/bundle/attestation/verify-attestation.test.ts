/** An attestation on its own: its signature against the key given, its statement against the schemas, its subjects against the files. */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { envelopeLine, sealEnvelope } from '../../../../../src/report/files/bundle/attestation/dsse-envelope.ts';
import { testResultStatement } from '../../../../../src/report/files/bundle/attestation/test-result-statement.ts';
import { type SubjectFiles, verifyAttestation } from '../../../../../src/report/files/bundle/attestation/verify-attestation.ts';
import type { ConformanceReport } from '../../../../../src/report/model/model.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const files = new Map([
  ['conformance.json', Buffer.from('{"a":1}')],
  ['exchanges.har', Buffer.from('{"log":{}}')],
]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const report = {
  tool: { name: 'conformance', version: '1.0.0' },
  target: { baseUrl: 'http://127.0.0.1:1', embedded: true },
  schemasHash: 'a'.repeat(64),
  seed: 1,
  profile: 'quick',
  strict: false,
  startedAt: '2026-11-27T08:00:00.000Z',
  durationMs: 1,
  summary: { verdict: 'conformant' },
  rules: [{ id: 'r', status: 'passed', blocking: false }],
} as unknown as ConformanceReport;
const statement = testResultStatement(
  report,
  [...files].map(([name, data]) => ({ name, sha256: sha256(data) })),
  { commandLine: 'conformance run' },
);
const text = (value: unknown, signed = true, payloadType?: string) =>
  envelopeLine(sealEnvelope(Buffer.from(JSON.stringify(value)), signed ? privateKey : undefined, payloadType)).toString('utf8');
const from = (map: Map<string, Buffer>): SubjectFiles => ({
  from: 'the folder',
  digest: async (name) => {
    const data = map.get(name);
    return data ? sha256(data) : undefined;
  },
});

describe('verifyAttestation', () => {
  it('signed, with its key and its files: verified, saying what was checked', async () => {
    const result = await verifyAttestation(text(statement), 'a.jsonl', publicKey, from(files));
    expect(result).toMatchObject({ verified: true, key: 'given', statement: { predicate: { result: 'PASSED', passedTests: ['r'] } } });
    expect(result.notes).toEqual([
      expect.stringMatching(/^signed by the public key given \(SHA256:[0-9a-f]{32}\)$/),
      '2 subjects have their SHA-256 in the folder',
    ]);
    expect((await verifyAttestation(text(statement), 'a.jsonl', publicKey)).notes).toContain('subjects not checked: give --bundle FILE or --subjects DIR');
  });

  it('a changed file, a missing one: fails naming it', async () => {
    const changed = new Map(files).set('exchanges.har', Buffer.from('{"log":{"x":1}}'));
    expect((await verifyAttestation(text(statement), 'a.jsonl', publicKey, from(changed))).problem).toBe('exchanges.har: SHA-256 differs from the attestation');
    const missing = new Map(files);
    missing.delete('conformance.json');
    expect((await verifyAttestation(text(statement), 'a.jsonl', publicKey, from(missing))).problem).toBe(
      'conformance.json is not in the folder (the attestation names it)',
    );
  });

  it('another key, no key for a signed one, a key for an unsigned one: fails; unsigned without a key says it proves nothing of origin', async () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    expect((await verifyAttestation(text(statement), 'a.jsonl', other)).problem).toMatch(/^a\.jsonl: signature does not match the public key given/);
    expect((await verifyAttestation(text(statement), 'a.jsonl')).problem).toBe(
      "a.jsonl is signed: give the signer's public key (--public-key public.pem) to check it",
    );
    expect((await verifyAttestation(text(statement, false), 'a.jsonl', publicKey)).problem).toMatch(/^a\.jsonl is unsigned/);
    const unsigned = await verifyAttestation(text(statement, false), 'a.jsonl', undefined, from(files));
    expect(unsigned).toMatchObject({ verified: true, key: 'none' });
    expect(unsigned.notes[0]).toMatch(/^unsigned: no proof of origin/);
  });

  it('another payload type, another predicate, a statement the schema refuses: fails with one line', async () => {
    expect((await verifyAttestation(text(statement, true, 'application/json'), 'a.jsonl', publicKey)).problem).toBe(
      'a.jsonl: payloadType is application/json, not application/vnd.in-toto+json',
    );
    expect((await verifyAttestation(text({ ...statement, predicateType: 'https://slsa.dev/provenance/v1' }), 'a.jsonl', publicKey)).problem).toBe(
      'a.jsonl: predicateType is https://slsa.dev/provenance/v1, not https://in-toto.io/attestation/test-result/v0.1',
    );
    expect((await verifyAttestation(text({ ...statement, subject: [] }), 'a.jsonl', publicKey)).problem).toMatch(/^a\.jsonl: statement\/subject: /);
    const noResult = { ...statement, predicate: { ...statement.predicate, result: 'SUCCESS' } };
    expect((await verifyAttestation(text(noResult), 'a.jsonl', publicKey)).problem).toMatch(/^a\.jsonl: predicate\/result: /);
    expect((await verifyAttestation('{"payloadType":"x"}', 'a.jsonl', publicKey)).problem).toMatch(/is not a DSSE envelope/);
  });
});

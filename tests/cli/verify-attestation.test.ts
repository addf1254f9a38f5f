/**
 * `conformance bundle` writes the attestation beside the bundle, and `conformance verify` checks
 * it on its own: with the public key, against the bundle or the unpacked files; a changed file,
 * another key or a foreign attestation exit 1 with one line; usage errors exit 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeLine, sealEnvelope } from '../../src/report/files/bundle/attestation/dsse-envelope.ts';
import type { TestResultStatement } from '../../src/report/files/bundle/attestation/test-result-statement.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { embeddedReportFolder } from '../report/bundle-fixture.ts';
import { conformance, reportDir } from './binary.ts';

let dir: string;
let bundle: string;
let attestation: string;
let keys: string;

beforeAll(async () => {
  dir = reportDir();
  const run = await embeddedReportFolder(41);
  keys = path.join(dir, 'keys');
  expect((await conformance(['keygen', '--out', keys])).code).toBe(0);
  bundle = path.join(dir, 'evidence.tar.gz');
  attestation = path.join(dir, 'evidence.intoto.jsonl');
  const made = await conformance(['bundle', run.dir, '--out', bundle, '--sign-key', path.join(keys, 'private.pem')]);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stdout).toMatch(/^bundle .*evidence\.tar\.gz: 9 files, signed \(SHA256:[0-9a-f]{32}\); attestation .*evidence\.intoto\.jsonl$/m);
});

describe('conformance verify <attestation>', () => {
  it('with the public key: signature and statement; with --bundle or --subjects: the subjects too', async () => {
    const key = path.join(keys, 'public.pem');
    const alone = await conformance(['verify', attestation, '--public-key', key]);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(
      /^verified: .*evidence\.intoto\.jsonl: in-toto Test Result, result PASSED \(\d+ passed, 0 warned, 0 failed tests\); signed by the public key given \(SHA256:[0-9a-f]{32}\); subjects not checked/,
    );
    const withBundle = await conformance(['verify', attestation, '--public-key', key, '--bundle', bundle]);
    expect(withBundle.code, withBundle.stderr).toBe(0);
    expect(withBundle.stdout).toMatch(/7 subjects have their SHA-256 in the bundle .*evidence\.tar\.gz$/m);
    const unpacked = path.join(dir, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', bundle, '-C', unpacked]);
    const folder = path.join(unpacked, 'conformance-bundle');
    const withFiles = await conformance(['verify', attestation, '--public-key', key, '--subjects', folder, '--json']);
    expect(withFiles.code, withFiles.stderr).toBe(0);
    expect(JSON.parse(withFiles.stdout)).toMatchObject({ verified: true, key: 'given', statement: { predicate: { result: 'PASSED' } } });
    expect(JSON.parse(withFiles.stdout).notes).toContain('its result and tests agree with conformance.json');

    // Signed by the right key over the right files, but saying FAILED beside a conformant conformance.json.
    const report = JSON.parse(readFileSync(path.join(folder, 'conformance.json'), 'utf8')) as ConformanceReport;
    const { statement } = JSON.parse(withFiles.stdout) as { statement: TestResultStatement };
    const lying = { ...statement, predicate: { ...statement.predicate, result: 'FAILED' } };
    const signKey = createPrivateKey(readFileSync(path.join(keys, 'private.pem')));
    const forged = path.join(dir, 'forged.intoto.jsonl');
    writeFileSync(forged, envelopeLine(sealEnvelope(Buffer.from(JSON.stringify(lying)), signKey)));
    const disagrees = await conformance(['verify', forged, '--public-key', key, '--subjects', folder]);
    expect(disagrees.code).toBe(1);
    expect(disagrees.stderr.trim()).toMatch(
      new RegExp(`forged\\.intoto\\.jsonl: predicate\\.result is FAILED, conformance\\.json's verdict ${report.summary.verdict} makes it PASSED$`),
    );
    // The member inside the bundle is the same file.
    expect(readFileSync(path.join(folder, 'attestation.intoto.jsonl')).equals(readFileSync(attestation))).toBe(true);

    // A changed byte of an unpacked file fails, naming it.
    const har = path.join(folder, 'exchanges.har');
    writeFileSync(har, `${readFileSync(har, 'utf8')} `);
    const changed = await conformance(['verify', attestation, '--public-key', key, '--subjects', folder]);
    expect(changed.code).toBe(1);
    expect(changed.stderr.trim()).toMatch(/verification failed: exchanges\.har: SHA-256 differs from the attestation$/);
  });

  it('another key, no key, or an attestation that is not the bundle one: exit 1, one line', async () => {
    const other = path.join(dir, 'other');
    await conformance(['keygen', '--out', other]);
    const wrong = await conformance(['verify', attestation, '--public-key', path.join(other, 'public.pem')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/signature does not match the public key given/);
    const none = await conformance(['verify', attestation]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/is signed: give the signer's public key/);
    // The same statement with its signature stripped: it checks as unsigned, but it is not the bundle's own.
    const envelope = JSON.parse(readFileSync(attestation, 'utf8')) as { payload: string };
    const foreign = path.join(dir, 'foreign.intoto.jsonl');
    writeFileSync(foreign, `${JSON.stringify({ ...envelope, signatures: [] })}\n`);
    const notOwn = await conformance(['verify', foreign, '--bundle', bundle]);
    expect(notOwn.code).toBe(1);
    expect(notOwn.stderr).toMatch(/foreign\.intoto\.jsonl is not the bundle's attestation\.intoto\.jsonl \(SHA-256 differs\)$/m);
    for (const r of [wrong, none, notOwn]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('usage errors exit 2: --bundle with --subjects, --bundle beside a bundle, a folder where the attestation goes', async () => {
    const key = path.join(keys, 'public.pem');
    const both = await conformance(['verify', attestation, '--public-key', key, '--bundle', bundle, '--subjects', dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --bundle FILE or --subjects DIR, not both/);
    const onBundle = await conformance(['verify', bundle, '--bundle', bundle]);
    expect(onBundle.code).toBe(2);
    expect(onBundle.stderr).toMatch(/--bundle and --subjects go with an attestation/);
    mkdirSync(path.join(dir, 'taken.intoto.jsonl'));
    const taken = await conformance(['bundle', path.join(dir, 'unpacked', 'conformance-bundle'), '--out', path.join(dir, 'taken.tar.gz')]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/--out .*taken\.tar\.gz: its attestation beside it, .*taken\.intoto\.jsonl, cannot be used: it is a folder/);
  });
});

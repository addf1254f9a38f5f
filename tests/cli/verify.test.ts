/** `conformance keygen`, `run --bundle --sign-key`, `conformance bundle` and `conformance verify`, as a user runs them. */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformance, reportDir } from './binary.ts';
import { readTarGz } from '../../src/report/files/bundle/tar-archive.ts';
import type { HarEntry } from '../../src/report/files/har.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { forgedReportFolder } from '../run/forged-report.ts';

describe('signed evidence on the command line', () => {
  it('keygen, run --bundle --sign-key, verify: 0 with the right key, 1 with another, unsigned says so', async () => {
    const dir = reportDir();
    const keys = path.join(dir, 'keys');
    const made = await conformance(['keygen', '--out', keys]);
    expect(made.code, made.stderr).toBe(0);
    const privateKey = readFileSync(path.join(keys, 'private.pem'), 'utf8');
    const bundle = path.join(dir, 'evidence.tar.gz');
    const reports = path.join(dir, 'reports');
    const ran = await conformance([
      'run',
      '--profile',
      'quick',
      '--seed',
      '5',
      '--report-dir',
      reports,
      '--bundle',
      bundle,
      '--sign-key',
      path.join(keys, 'private.pem'),
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(bundle);
    // The run says what its bundle proves where it writes it.
    expect(ran.stdout).toContain(`bundle: ${bundle}, signed, personal values as sent`);
    // And its in-toto attestation beside it, for tools that take a DSSE envelope.
    expect(ran.stdout).toContain(`its in-toto attestation: ${path.join(dir, 'evidence.intoto.jsonl')}`);
    expect(readFileSync(path.join(dir, 'evidence.intoto.jsonl'), 'utf8')).toMatch(/^\{"payloadType":"application\/vnd\.in-toto\+json","payload":"/);
    for (const output of [made.stdout, ran.stdout, ran.stderr]) expect(output).not.toContain(privateKey.split('\n')[1]);
    // The manifest records the command as typed.
    const manifest = JSON.parse(
      readTarGz(readFileSync(bundle))
        .find((m) => m.name === 'manifest.json')!
        .data.toString('utf8'),
    );
    expect(manifest.commandLine).toBe(
      `conformance run --profile quick --seed 5 --report-dir ${reports} --bundle ${bundle} --sign-key ${path.join(keys, 'private.pem')}`,
    );

    const verified = await conformance(['verify', bundle, '--public-key', path.join(keys, 'public.pem')]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(
      /^verified: .*evidence\.tar\.gz: 9 files, verdict conformant recomputed from the rules, \d+ rule statuses re-judged from \d+ recorded exchanges, 7 files attested PASSED by its attestation; signed by the public key given/,
    );

    const other = path.join(dir, 'other');
    await conformance(['keygen', '--out', other]);
    const wrong = await conformance(['verify', bundle, '--public-key', path.join(other, 'public.pem')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/verification failed: signature does not match the public key given/);

    const unsignedFile = path.join(dir, 'unsigned.tar.gz');
    const bundled = await conformance(['bundle', reports, '--out', unsignedFile]);
    expect(bundled.code, bundled.stderr).toBe(0);
    const unsigned = await conformance(['verify', unsignedFile, '--json']);
    expect(unsigned.code).toBe(0);
    expect(JSON.parse(unsigned.stdout)).toMatchObject({ verified: true, key: 'none', notes: ['unsigned: integrity only, no proof of origin'] });
    const { rejudge } = JSON.parse(unsigned.stdout) as { rejudge: { rules: { id: string; status: string }[]; notRejudged: unknown[]; rebuilt: number } };
    expect(rejudge.notRejudged).toEqual([]);
    expect(rejudge.rebuilt).toBeGreaterThan(100);
    expect(rejudge.rules.find((r) => r.id === 'fa.metadata.over-pairs-rejected')?.status).toBe('passed');
  });

  it('usage errors are one line, exit 2: not a bundle, a folder, a bad key file, --sign-key without --bundle, an existing key', async () => {
    const dir = reportDir();
    const notBundle = path.join(dir, 'x.tar.gz');
    writeFileSync(notBundle, '{}');
    const badKey = path.join(dir, 'bad.pem');
    writeFileSync(badKey, 'not a key');
    const results = await Promise.all([
      conformance(['verify', notBundle]),
      conformance(['verify', path.join(dir, 'missing.tar.gz')]),
      conformance(['run', '--bundle', path.join(dir, 'b.tar.gz'), '--sign-key', badKey, '--report-dir', path.join(dir, 'r')]),
      conformance(['run', '--sign-key', badKey]),
      conformance(['run', '--report-dir', path.join(dir, 'r'), '--bundle', path.join(dir, 'r', 'summary.md')]),
      conformance(['verify', dir]),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(results[5].stderr).toMatch(/cannot read .*: EISDIR/);
    expect(results[4].stderr).toMatch(/--bundle .*summary\.md is a file of the report folder/);
    expect(results[0].stderr).toMatch(/is not a bundle/);
    expect(results[1].stderr).toMatch(/cannot read .*missing\.tar\.gz: ENOENT/);
    expect(results[2].stderr).toMatch(/--sign-key .*bad\.pem is not a PEM private key/);
    expect(results[3].stderr).toMatch(/--sign-key and --redact-personal apply to the bundle: add --bundle FILE/);
    for (const r of results) expect(r.stderr.trim().split('\n')).toHaveLength(1);
    // A run that could not judge its target still leaves a bundle, and it verifies (verdict error).
    const bundle = path.join(dir, 'aborted.tar.gz');
    const aborted = await conformance([
      'run',
      '--base-url',
      'http://127.0.0.1:9',
      '--token',
      'secret-token-123',
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--report-dir',
      path.join(dir, 'a'),
      '--bundle',
      bundle,
    ]);
    expect(aborted.code).toBe(3);
    const verified = await conformance(['verify', bundle]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/verdict error recomputed from the rules/);
    for (const member of readTarGz(readFileSync(bundle))) expect(member.data.toString('utf8'), member.name).not.toContain('secret-token-123');
    await conformance(['keygen', '--out', dir]);
    const again = await conformance(['keygen', '--out', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/private\.pem exists; keygen never overwrites a key/);
  });

  it('the environment twins make a redacted bundle; its HAR, extracted with tar, replays to the report statuses', async () => {
    const dir = reportDir();
    const bundle = path.join(dir, 'redacted.tar.gz');
    const ran = await conformance(['run', '--runs', '3', '--seed', '8', '--fault', 'id-govt-id-differs', '--report-dir', path.join(dir, 'reports')], {
      CONFORMANCE_BUNDLE: bundle,
      CONFORMANCE_REDACT_PERSONAL: 'true',
    });
    expect(ran.code, ran.stderr).toBe(1);
    execFileSync('tar', ['-xzf', bundle, '-C', dir]);
    const folder = path.join(dir, 'conformance-bundle');
    expect(JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')).redacted).toBe(true);
    expect(readFileSync(path.join(folder, 'exchanges.har'), 'utf8')).not.toContain('Lovelace');
    const replayed = await conformance(['replay', path.join(folder, 'exchanges.har')]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(/^ {2}id\.govt-id\.mirrors-cip +failed /m);
    expect(replayed.stdout).toMatch(/^ {2}id\.ref-id\.sequential-duplicate +passed /m);
    expect(replayed.stdout).toMatch(/^every rule judged in the HAR was judged again$/m);
    expect(replayed.stdout).toMatch(/^every rule re-judged has the status the report gives it$/m);
  });

  it('a bundle whose conformance.json passes a rule its recorded exchanges fail is refused in one line naming the rule; a body the HAR cut is said', async () => {
    const dir = reportDir();
    const reports = path.join(dir, 'reports');
    const ran = await conformance(['run', '--runs', '3', '--seed', '7', '--fault', 'metadata-over-pairs-accepted', '--report-dir', reports]);
    expect(ran.code, ran.stderr).toBe(1);
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    const forgedDir = await forgedReportFolder(reports, report, 'fa.metadata.over-pairs-rejected');
    const bundle = path.join(dir, 'forged.tar.gz');
    const bundled = await conformance(['bundle', forgedDir, '--out', bundle]);
    expect(bundled.code, bundled.stderr).toBe(0);
    const refused = await conformance(['verify', bundle]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /verification failed: conformance\.json: rule fa\.metadata\.over-pairs-rejected says passed, the recorded exchanges fail it \(entry \d+: /,
    );
    const json = await conformance(['verify', bundle, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).rejudge.rules).toContainEqual(expect.objectContaining({ id: 'fa.metadata.over-pairs-rejected', status: 'failed' }));

    // The true report, with one answer the HAR cut: verified, the rules of its operation not re-judged, and said so.
    const harFile = path.join(reports, 'exchanges.har');
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: HarEntry[] } };
    const cut = har.log.entries.find((e) => e._case?.operation === 'createIdentity' && e.response.status === 201)!;
    cut.response.content = { ...cut.response.content, text: cut.response.content.text!.slice(0, 10), comment: 'body cut to its first 10 of 70000 characters' };
    writeFileSync(harFile, JSON.stringify(har));
    const cutBundle = path.join(dir, 'cut.tar.gz');
    expect((await conformance(['bundle', reports, '--out', cutBundle])).code).toBe(0);
    const withCut = await conformance(['verify', cutBundle]);
    expect(withCut.code, withCut.stderr).toBe(0);
    expect(withCut.stdout).toMatch(/re-judged from \d+ recorded exchanges \(\d+ not re-judged: a body was cut\)/);
  });

  it('bundle, verify and keygen have their help, and the command list names them', async () => {
    const [bundle, verify, keygen, list] = await Promise.all([
      conformance(['bundle', '--help']),
      conformance(['verify', '--help']),
      conformance(['keygen', '--help']),
      conformance(['--help']),
    ]);
    expect([bundle.code, verify.code, keygen.code, list.code]).toEqual([0, 0, 0, 0]);
    expect(bundle.stdout).toMatch(/^usage: conformance bundle <report folder> --out FILE/);
    expect(verify.stdout).toMatch(/^usage: conformance verify <bundle\.tar\.gz> \[--public-key FILE\]/);
    expect(keygen.stdout).toMatch(/^usage: conformance keygen --out DIR/);
    for (const command of ['bundle', 'verify', 'keygen']) expect(list.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });
});

/**
 * --redact-personal on a real run's bundle: no personal value sent (collected from the unredacted
 * HAR) is left in any member, in any spelling; the bundle still verifies; and its HAR, replayed
 * against a fresh embedded server, gives the report's rule statuses, for the faithful server and
 * for a fault whose failure quotes a government id.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { personalValuesOfHar } from '../../src/report/files/bundle/personal-values.ts';
import { redactPersonalValues } from '../../src/report/files/bundle/personal-redaction.ts';
import { StandIns } from '../../src/report/files/bundle/stand-ins.ts';
import { readTarGz } from '../../src/report/files/bundle/tar-archive.ts';
import { verifyBundle } from '../../src/report/files/bundle/verify-bundle.ts';
import { buildBundle, reportFolderFiles } from '../../src/report/files/bundle/write-bundle.ts';
import type { HarEntry } from '../../src/report/files/har.ts';
import { replayDisagreements, replayHar } from '../../src/run/har-replay.ts';
import { REACHABILITY_REQUESTS } from '../../src/engine/request-budget.ts';
import { runConfig } from '../../src/run/run-config.ts';
import { embeddedReportFolder, keyPair } from './bundle-fixture.ts';

/** Every way a value can stand in a file of the bundle. */
const spellings = (value: string): string[] => [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` shows `value` as a value: one of 6 characters or more wherever no letter or digit
 * touches it, and a name of 3 to 5 characters with a letter too (a case's label names the owner
 * unquoted); a shorter one where it is quoted ("Al" inside "Alert", "28" inside a date are no leak).
 */
function shows(text: string, value: string): boolean {
  const length = [...value].length;
  return spellings(value).some((s) =>
    length >= 6 || (length >= 3 && /\p{L}/u.test(value))
      ? new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(s)}(?![\\p{L}\\p{N}])`, 'u').test(text)
      : new RegExp(`["'>;\`]${escapeRegExp(s)}["'&\\\\<\`]`, 'u').test(text),
  );
}

describe.each([
  { name: 'the faithful server', fault: undefined },
  { name: 'a fault that fails a rule on a government id', fault: 'id-govt-id-differs' },
])('a redacted bundle of $name', ({ fault }) => {
  it('holds no personal value sent, verifies, and its HAR replays to the report statuses', async () => {
    const { dir, report } = await embeddedReportFolder(23, fault);
    const personal = [...personalValuesOfHar(readFileSync(path.join(dir, 'exchanges.har'), 'utf8'))].filter((v) => /[\p{L}\p{N}\p{So}]/u.test(v));
    // The run sent names, emails, phone numbers, account numbers and government ids.
    expect(personal.length).toBeGreaterThan(20);
    expect(personal).toEqual(expect.arrayContaining(['Ada', 'Lovelace']));
    if (fault) {
      // Its evidence quotes a government id sent: what the redaction must reach inside a failure.
      const failure = report.rules.find((r) => r.id === 'id.govt-id.mirrors-cip')!;
      expect(failure.status).toBe('failed');
      expect(personal.some((value) => /\d{3}/.test(value) && JSON.stringify(failure.failures[0]).includes(value))).toBe(true);
    }

    const signer = keyPair();
    const { bytes, manifest } = buildBundle(report, await reportFolderFiles(dir), {
      signKey: signer.privateKey,
      redactPersonal: true,
      commandLine: 'conformance run',
    });
    expect(manifest).toMatchObject({ redacted: true, redactedValues: personal.length });
    expect(verifyBundle(bytes, signer.publicKey)).toMatchObject({ verified: true });
    const members = readTarGz(bytes);
    for (const member of members) {
      const text = member.data.toString('utf8');
      const left = personal.filter((value) => shows(text, value));
      expect(left, member.name).toEqual([]);
    }

    const har = JSON.parse(members.find((m) => m.name === 'exchanges.har')!.data.toString('utf8')) as { log: { entries: HarEntry[] } };
    const replayed = await replayHar(har.log.entries, runConfig({ seed: 0, ...(fault ? { fault } : {}) }));
    // Everything but the reachability check, which a replay makes of its own.
    expect(replayed.sent).toBe(har.log.entries.length - REACHABILITY_REQUESTS);
    expect(replayDisagreements(report.rules, replayed)).toEqual([]);
    // The failure is found again on the stand-ins, not merely carried over.
    if (fault) expect(replayed.rules.find((r) => r.id === 'id.govt-id.mirrors-cip')?.status).toBe('failed');
    // The scenarios' rules too: the ref_id repeats and races, the update sequences.
    expect(replayed.notRejudged).toEqual([]);
    for (const id of ['id.ref-id.sequential-duplicate', 'id.ref-id.concurrent-duplicate', 'fa.sequence.persisted'])
      expect(replayed.rules.find((r) => r.id === id)?.status, id).toBe(report.rules.find((r) => r.id === id)?.status);
  });
});

describe('stand-ins', () => {
  it('keep the shape of each value: lengths, classes, punctuation, a valid email, a leading digit', () => {
    const standIns = new StandIns();
    const values = ['Ada', 'jane.doe@example.com', '+15555550100', '123-45-6789', 'Zoë', '東京太郎', '𠀋𠀌', 'e\u0301mile', "O'Brien"];
    for (const value of values) {
      const standIn = standIns.of(value)!;
      expect(standIn, value).not.toBe(value);
      expect([...standIn].length).toBe([...value].length);
      expect(standIn.length).toBe(value.length);
      expect([...standIn].map((ch) => Buffer.byteLength(ch))).toEqual([...value].map((ch) => Buffer.byteLength(ch)));
      const classOf = (ch: string) => (/[A-Z]/.test(ch) ? 'A' : /[a-z]/.test(ch) ? 'a' : /[0-9]/.test(ch) ? '0' : /\p{L}/u.test(ch) ? 'L' : ch);
      expect([...standIn].map(classOf)).toEqual([...value].map(classOf));
    }
    expect(standIns.of('jane.doe@example.com')).toMatch(/^[a-z]{4}\.[a-z]{3}@[a-z]{7}\.[a-z]{3}$/);
    expect(standIns.of('+15555550100')).toMatch(/^\+[1-9]\d{10}$/);
    // A leading zero stays one (a server that drops leading zeros must show it again), after other digits were drawn.
    expect(standIns.of('008-91-6595')).toMatch(/^0\d{2}-\d{2}-\d{4}$/);
    // Deterministic within a bundle, unrelated across bundles (another salt).
    expect(standIns.of('Ada')).toBe(standIns.of('Ada'));
    const salt = Buffer.alloc(32, 7);
    expect(new StandIns(salt).of('Lovelace')).toBe(new StandIns(salt).of('Lovelace'));
    expect(new StandIns(salt).of('Lovelace')).not.toBe(new StandIns(Buffer.alloc(32, 8)).of('Lovelace'));
  });

  it('a value that would remain stops the bundle, naming the file and not the value', () => {
    const har = JSON.stringify({
      log: { entries: [{ request: { postData: { text: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace' }) } }, response: {} }] },
    });
    const members = [
      { name: 'exchanges.har', data: Buffer.from(har) },
      { name: 'summary.md', data: Buffer.from('first_name "Ada", last_name "Lovelace"') },
    ];
    const redacted = redactPersonalValues(members);
    expect(redacted.values).toBe(2);
    expect(redacted.members[1].data.toString()).not.toMatch(/Ada|Lovelace/);
    // A stand-in that spells another original, quoted: refused after replacing.
    class Leaky extends StandIns {
      override of(value: string): string {
        return value === 'Lovelace' ? "Ada'xyzw" : 'Bob';
      }
    }
    expect(() => redactPersonalValues(members, new Leaky())).toThrow(
      /^--redact-personal: a personal value remains in exchanges\.har after redaction; no bundle written$/,
    );
  });
});

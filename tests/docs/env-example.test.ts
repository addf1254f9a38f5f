/**
 * .env.example sets only defaults (issue 31, point 6: it set CONFORMANCE_CONCURRENCY=10 while the
 * default is 8): each variable it gives a value resolves to the same run settings as leaving it
 * unset, every one it names is a real environment twin of `conformance run`, and anything else is
 * in a comment, as an example.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESTORE_PATIENCE_MS } from '../../src/engine/restore/account-restore.ts';
import { RUN_OPTIONS, resolveRunConfig } from '../../src/run/run-config.ts';

const lines = readFileSync(fileURLToPath(new URL('../../.env.example', import.meta.url)), 'utf8').split('\n');
const settings = lines.filter((line) => line.trim() !== '' && !line.startsWith('#')).map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line));
const TWINS = new Set<string>(Object.values(RUN_OPTIONS).flatMap((o) => ('env' in o ? [o.env] : [])));
/** Settings the resolver leaves absent when not given, and the engine then gives their default. */
const APPLIED_LATER = { restorePatienceMs: RESTORE_PATIENCE_MS };
const resolved = (env: Record<string, string>, remote: boolean) =>
  resolveRunConfig(
    [
      '--seed',
      '1',
      ...(remote ? ['--base-url', 'https://sandbox.example.com', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'] : []),
    ],
    env,
    () => 1,
  );

describe('.env.example', () => {
  it('has only comments and NAME=value lines, each NAME a run setting', () => {
    for (const [index, match] of settings.entries()) expect(match, `line ${index}`).not.toBeNull();
    expect(settings.map((m) => m?.[1]).filter((name) => !TWINS.has(name ?? ''))).toEqual([]);
  });

  it.each([false, true])('gives every variable its default or leaves it empty (remote target: %s)', (remote) => {
    const defaults = { ...APPLIED_LATER, ...resolved({}, remote) };
    for (const match of settings) {
      const [, name, value] = match ?? [];
      if (!name || value === '') continue;
      expect({ ...APPLIED_LATER, ...resolved({ [name]: value ?? '' }, remote) }, `${name}=${value}`).toEqual(defaults);
    }
  });
});

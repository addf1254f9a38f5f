/** The settings as a caller gave them: each value with the name it came under, the environment filling the rest. */
import { describe, expect, it } from 'vitest';
import { listOf, nameOf, settingsOfArgv, settingsOfOptions, switchOf, textOf, wholeNumberOf } from '../../src/run/given-settings.ts';

describe('given settings', () => {
  it('keeps the name each value came under: a flag, an option, an environment variable', () => {
    const env = { CONFORMANCE_RUNS: '3', CONFORMANCE_TIMEOUT_MS: '500' };
    const cli = settingsOfArgv(['--concurrency', '2'], env)!;
    expect(cli.get('concurrency')).toEqual({ value: '2', name: '--concurrency', from: 'flag' });
    expect(cli.get('runs')).toEqual({ value: '3', name: 'CONFORMANCE_RUNS', from: 'env' });
    const library = settingsOfOptions({ concurrency: 2, clientCredentials: { tokenUrl: 'http://x/t' } }, env);
    expect(library.get('concurrency')).toEqual({ value: 2, name: 'concurrency', from: 'option' });
    expect(library.get('auth-url')).toEqual({ value: 'http://x/t', name: 'clientCredentials.tokenUrl', from: 'option' });
    expect(library.get('timeout')).toEqual({ value: '500', name: 'CONFORMANCE_TIMEOUT_MS', from: 'env' });
    // What was not given is named as the caller would write it.
    expect([nameOf(cli, 'seed'), nameOf(library, 'seed'), nameOf(library, 'fiat-account-id')]).toEqual(['--seed', 'seed', 'fiatAccountIds']);
  });

  it('reads typed values as they are and text as a flag is read', () => {
    expect(wholeNumberOf(settingsOfOptions({ runs: 7 }), 'runs')).toBe(7);
    expect(wholeNumberOf(settingsOfArgv(['--runs', ' 7 '], {})!, 'runs')).toBe(7);
    expect(textOf(settingsOfOptions({ seed: 5 }), 'seed')).toBe('5');
    expect(() => wholeNumberOf(settingsOfOptions({ runs: '' }), 'runs')).toThrow(/^runs is empty: give a whole number >= 0, or leave the option out$/);
    expect(() => wholeNumberOf(settingsOfArgv(['--runs', ''], {})!, 'runs')).toThrow(/^--runs is empty: .*, or leave the flag out$/);
  });

  it('a switch left off lets its environment twin turn it on; the command line only has its own output flags', () => {
    const env = { CONFORMANCE_STRICT: 'yes', CONFORMANCE_QUIET: '1' };
    expect(switchOf(settingsOfOptions({ strict: false }, env), 'strict')).toBe(true);
    expect(switchOf(settingsOfOptions({}, { CONFORMANCE_STRICT: 'no' }), 'strict')).toBe(false);
    // Listing rules is the command line's: an option of that name is no setting, even untyped.
    expect(switchOf(settingsOfOptions({ listRules: true }), 'list-rules')).toBe(false);
    expect(switchOf(settingsOfOptions({}, env), 'quiet')).toBe(true);
  });

  it('splits repeatable settings on commas, an empty list falling back to the environment, a reading object to its pairs', () => {
    const env = { CONFORMANCE_RULES: 'fa.metadata, id.tax' };
    expect(listOf(settingsOfOptions({ rules: [] }, env), 'rule')).toEqual(['fa.metadata', 'id.tax']);
    expect(listOf(settingsOfOptions({ rules: ['id.ref-id,fa.auth'] }, env), 'rule')).toEqual(['id.ref-id', 'fa.auth']);
    expect(listOf(settingsOfArgv(['--rule', 'fa.', '--rule', 'id.'], env)!, 'rule')).toEqual(['fa.', 'id.']);
    expect(listOf(settingsOfOptions({ reading: { placement: 'top', 'reject-status': '422' } }), 'reading')).toEqual(['placement=top', 'reject-status=422']);
  });

  it('returns null for --help', () => {
    expect(settingsOfArgv(['--help'], {})).toBeNull();
  });
});

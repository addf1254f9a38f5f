/**
 * The library's option errors speak of options: a bad value is refused under the name the caller
 * wrote (`concurrency`), never the command line's flag (`--concurrency`), and one that came from
 * the environment under its variable. The command line's own words are tests/run/run-config.test.ts.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { UsageError, createClient, runConformance, type ConformanceOptions } from '../../src/api/index.ts';
import { resolveOptions } from '../../src/api/run-conformance.ts';
import type { OptionName } from '../../src/run/given-settings.ts';

const remote = { baseUrl: 'https://sandbox.example.com', token: 'T', fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'] };

/** The message of the UsageError the options are refused with. */
function refusal(options: ConformanceOptions): string {
  try {
    resolveOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

// Untyped callers (JavaScript, JSON config files) can pass anything: the options are typed, the values are not.
const untyped = (options: Record<string, unknown>) => options as ConformanceOptions;

/** The option an entry of the flag table reads: `clientCredentials.tokenUrl` is read from `clientCredentials`. */
type TopName<N> = N extends `${infer Head}.${string}` ? Head : N;
type ReadOptions = TopName<OptionName>;

describe("the library's option errors", () => {
  it('every option is one the resolver reads, and it reads no other (checked by tsc)', () => {
    // An option added to ConformanceOptions but not to the flag table (run-flags.ts) would be ignored without a word.
    expectTypeOf<Exclude<keyof ConformanceOptions, 'env' | 'signal'>>().toEqualTypeOf<ReadOptions>();
  });

  it('runConformance({ concurrency: "abc" }) names the option concurrency, not the flag', async () => {
    await expect(runConformance(untyped({ concurrency: 'abc' }))).rejects.toThrow(new UsageError('concurrency must be a whole number >= 1, got "abc"'));
  });

  it.each([
    [{ concurrency: 0 }, /^concurrency must be a whole number >= 1, got 0$/],
    [{ concurrency: 2.5 }, /^concurrency must be a whole number >= 1, got 2\.5$/],
    [{ timeoutMs: 2 ** 31 }, /^timeoutMs must be a whole number from 1 to 2147483647, got 2147483648$/],
    [untyped({ timeoutMs: '' }), /^timeoutMs is empty: give a whole number from 1 to 2147483647, or leave the option out$/],
    [untyped({ seed: 'abc' }), /^seed must be an integer, got "abc"$/],
    [{ seed: Number.NaN }, /^seed must be an integer, got NaN$/],
    [{ runs: -1 }, /^runs must be a whole number >= 0, got -1$/],
    [{ rateLimit: -1 }, /^rateLimit must be/],
    [{ maxRetries: 1.5 }, /^maxRetries must be/],
    [{ restorePatience: -1 }, /^restorePatience must be/],
    [{ seed: 1, shard: '4/3' }, /^shard takes i\/n with 1 <= i <= n, e\.g\. '2\/3' for the second of three shards; got "4\/3"$/],
    [{ shard: '1/3' }, /^shard needs seed \(or CONFORMANCE_SEED\)/],
    [{ baseUrl: 'not a url' }, /^baseUrl is not a URL: "not a url"/],
    [{ ...remote, baseUrl: 'https://sandbox.example.com/v2' }, /^baseUrl https:\/\/sandbox\.example\.com\/v2 ends with the version segment/],
    [
      { ...remote, baseUrl: 'https://u:p@sandbox.example.com' },
      /^baseUrl must not carry credentials \(user:password@\); give them with token or clientCredentials$/,
    ],
    [{ ...remote, fiatAccountIds: [] }, /fiat account id: fiatAccountIds \(or CONFORMANCE_FIAT_ACCOUNT_IDS\)$/],
    [{ ...remote, token: undefined }, /^a remote target needs credentials: token, or clientCredentials/],
    [{ ...remote, fiatAccountIds: ['nope'] }, /^fiatAccountIds "nope" is not a UUID/],
    [{ ...remote, fault: 'fa-500-always' }, /^fault and reading apply to the embedded server only; drop them or drop baseUrl$/],
    [untyped({ profile: 'huge' }), /^profile must be one of quick, standard, deep, got "huge"$/],
    [{ rules: ['nope'] }, /^rules nope matches no rule id/],
    [{ reportDir: ' ' }, /^reportDir is empty: give a folder, or leave the option out for reports\/$/],
    [{ signKey: 'k.pem' }, /^signKey and redactPersonal apply to the bundle: add bundle$/],
    [{ maxRequests: 0 }, /^maxRequests must be a whole number >= 1, got 0$/],
    [
      untyped({ clientCredentials: { tokenUrl: 'http://127.0.0.1:9/token', clientId: 'c' } }),
      /^client credentials need clientCredentials\.clientSecret as well$/,
    ],
  ] as [ConformanceOptions, RegExp][])('%o is refused in the words of the options', (options, message) => {
    expect(refusal(options)).toMatch(message);
    expect(refusal(options)).not.toMatch(/(^|\W)--[a-z]/);
  });

  it('a value from the environment is named by its variable', () => {
    expect(refusal({ env: { CONFORMANCE_CONCURRENCY: 'abc' } })).toBe('CONFORMANCE_CONCURRENCY must be a whole number >= 1, got "abc"');
    expect(refusal({ env: { CONFORMANCE_TIMEOUT_MS: '0' } })).toMatch(/^CONFORMANCE_TIMEOUT_MS must be a whole number from 1/);
    expect(refusal({ env: { CONFORMANCE_SEED: '7', CONFORMANCE_SHARD: 'x' } })).toMatch(/^CONFORMANCE_SHARD takes i\/n .* e\.g\. CONFORMANCE_SHARD=2\/3 /);
    expect(refusal({ env: { CONFORMANCE_BASE_URL: 'ftp://x' } })).toMatch(/^CONFORMANCE_BASE_URL must be an http or https URL/);
    // The option wins over its variable, and is the one named.
    expect(refusal({ concurrency: 0, env: { CONFORMANCE_CONCURRENCY: '4' } })).toMatch(/^concurrency must be/);
  });

  it("typed values are taken as they are, and an untyped caller's digits as the flag takes them", () => {
    expect(resolveOptions({ concurrency: 3, timeoutMs: 500, seed: -4, runs: 0 })).toMatchObject({ concurrency: 3, timeoutMs: 500, seed: -4, runs: 0 });
    expect(resolveOptions(untyped({ concurrency: '3', seed: '5' }))).toMatchObject({ concurrency: 3, seed: 5 });
  });
});

describe("createClient's option errors", () => {
  it('checks its limits with the run resolver, naming the option', () => {
    const baseUrl = 'http://127.0.0.1:1';
    expect(() => createClient({ baseUrl, concurrency: 'abc' as unknown as number })).toThrow(
      new UsageError('concurrency must be a whole number >= 1, got "abc"'),
    );
    expect(() => createClient({ baseUrl, timeoutMs: 0 })).toThrow(/^timeoutMs must be a whole number from 1 to 2147483647, got 0$/);
    expect(() => createClient({ baseUrl, clientCredentials: { tokenUrl: 'nope', clientId: 'a', clientSecret: 'b' } })).toThrow(
      /^clientCredentials\.tokenUrl is not a URL/,
    );
    expect(createClient({ baseUrl, concurrency: 2, timeoutMs: 100 }).requestCount).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../../src/run/run-config.ts';
import { UsageError } from '../../src/core/errors.ts';

const seed = () => 42;
const resolve = (argv: string[], env: Record<string, string> = {}) => resolveRunConfig(argv, env, seed)!;
const usageError = (argv: string[], env: Record<string, string> = {}) => {
  try {
    resolveRunConfig(argv, env, seed);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
};
const remote = ['--base-url', 'https://sandbox.example.com/', '--token', 't0k', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'];

describe('run settings', () => {
  it('defaults to the embedded server, the standard profile, a random seed and no rate limit', () => {
    const c = resolve([]);
    expect(c.baseUrl).toBeUndefined();
    expect(c).toMatchObject({ profile: 'standard', runs: 50, seed: 42, rateLimitPerSecond: null, reportDir: 'reports', strict: false });
  });

  it('restores the fiat accounts unless --no-restore or CONFORMANCE_NO_RESTORE says not to', () => {
    expect(resolve(remote).noRestore).toBeUndefined();
    expect(resolve([...remote, '--no-restore']).noRestore).toBe(true);
    expect(resolve(remote, { CONFORMANCE_NO_RESTORE: 'true' }).noRestore).toBe(true);
    expect(resolve(remote, { CONFORMANCE_NO_RESTORE: 'false' }).noRestore).toBeUndefined();
  });

  it('takes flags over environment over defaults', () => {
    const env = { CONFORMANCE_SEED: '7', CONFORMANCE_PROFILE: 'deep', CONFORMANCE_REPORT_DIR: 'out' };
    expect(resolve([], env)).toMatchObject({ seed: 7, profile: 'deep', runs: 400, reportDir: 'out' });
    expect(resolve(['--seed', '9', '--runs', '3'], env)).toMatchObject({ seed: 9, runs: 3 });
  });

  it('reads a remote target with a token and several account ids from the environment', () => {
    const c = resolve([], {
      CONFORMANCE_BASE_URL: 'https://x.example/',
      CONFORMANCE_TOKEN: 't',
      CONFORMANCE_FIAT_ACCOUNT_IDS: '0f8fad5b-d9cb-469f-a165-70867728950e, 7c9e6679-7425-40de-944b-e07fc1f90ae7',
    });
    expect(c).toMatchObject({
      baseUrl: 'https://x.example',
      fiatAccountIds: ['0f8fad5b-d9cb-469f-a165-70867728950e', '7c9e6679-7425-40de-944b-e07fc1f90ae7'],
      auth: { kind: 'static', token: 't' },
      rateLimitPerSecond: 10,
    });
  });

  it("takes the client credentials when the environment also holds a token (conformance serve's file), and refuses both given as flags", () => {
    const served = {
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:9',
      CONFORMANCE_FIAT_ACCOUNT_IDS: '0f8fad5b-d9cb-469f-a165-70867728950e',
      CONFORMANCE_AUTH_URL: 'http://127.0.0.1:9/oauth/token',
      CONFORMANCE_CLIENT_ID: 'id',
      CONFORMANCE_CLIENT_SECRET: 'secret',
      CONFORMANCE_TOKEN: 'for-curl-by-hand',
    };
    expect(resolve([], served).auth).toMatchObject({ kind: 'client-credentials', clientId: 'id' });
    expect(usageError([...remote, '--auth-url', 'http://127.0.0.1:9/t', '--client-id', 'i', '--client-secret', 's'])).toMatch(/not both/);
  });

  it('takes client credentials', () => {
    const c = resolve([
      '--base-url',
      'http://127.0.0.1:9',
      '--fiat-account-id',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '--auth-url',
      'http://127.0.0.1:9/token',
      '--client-id',
      'id',
      '--client-secret',
      's',
      '--scope',
      'a b',
    ]);
    expect(c.auth).toEqual({ kind: 'client-credentials', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'id', clientSecret: 's', scope: 'a b' });
    expect(c.rateLimitPerSecond).toBeNull();
  });

  it('says what to do on usage errors', () => {
    expect(usageError(['--frobnicate'])).toMatch(/frobnicate.*--help/);
    expect(usageError(['--base-url', 'https://x.example', '--token', 't'])).toMatch(/--fiat-account-id/);
    expect(usageError(['--base-url', 'https://x.example', '--token', 't', '--fiat-account-id', 'not-a-uuid'])).toMatch(/"not-a-uuid" is not a UUID/);
    expect(usageError(['--base-url', 'https://x.example/api/v2/', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'])).toMatch(
      /ends with the version segment \/v2.*give https:\/\/x\.example\/api instead/,
    );
    expect(usageError(['--base-url', 'not a url', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'])).toMatch(/not a URL/);
    expect(usageError(['--base-url', 'ftp://x', '--token', 't', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'])).toMatch(/http or https/);
    expect(usageError(['--base-url', 'https://x.example', '--fiat-account-id', '0f8fad5b-d9cb-469f-a165-70867728950e'])).toMatch(/credentials/);
    expect(usageError([...remote, '--client-id', 'x'])).toMatch(/either --token or client credentials/);
    expect(usageError(['--auth-url', 'http://x/t'])).toMatch(/--client-id, --client-secret/);
    expect(usageError(['--profile', 'huge'])).toMatch(/quick, standard, deep/);
    expect(usageError(['--runs', '1.5'])).toMatch(/whole number/);
    expect(usageError(['--seed', 'abc'])).toMatch(/integer/);
    expect(usageError([...remote, '--fault', 'x'])).toMatch(/embedded server only/);
    expect(usageError(['--reading', 'placement'])).toMatch(/key=value/);
  });

  it.each(['seed', 'runs', 'timeout', 'rate-limit', 'concurrency', 'max-retries'])('an empty or blank --%s is an error naming the flag, not 0', (flag) => {
    expect(usageError([`--${flag}`, ''])).toMatch(new RegExp(`^--${flag} is empty: give `));
    expect(usageError([`--${flag}=  `])).toMatch(new RegExp(`^--${flag} is empty`));
  });

  it('whole numbers are decimal digits within range: no hex, exponent, fraction or timer overflow', () => {
    for (const value of ['0x10', '1e3', '1.5', '12abc', '99999999999999999999'])
      expect(usageError(['--runs', value])).toMatch(/^--runs must be a whole number >= 0, got/);
    expect(usageError(['--timeout', '2147483648'])).toMatch(/^--timeout must be a whole number from 1 to 2147483647/);
    expect(usageError(['--concurrency', '0'])).toMatch(/>= 1/);
    expect(resolve(['--seed=-3', '--runs', ' 7 ', '--timeout', '2147483647'])).toMatchObject({ seed: -3, runs: 7, timeoutMs: 2147483647 });
  });

  it('an empty or blank environment variable counts as unset; an empty --report-dir is an error', () => {
    const env = { CONFORMANCE_SEED: '', CONFORMANCE_RUNS: ' ', CONFORMANCE_TIMEOUT_MS: '', CONFORMANCE_REPORT_DIR: '' };
    expect(resolve([], env)).toMatchObject({ seed: 42, runs: 50, timeoutMs: 10_000, reportDir: 'reports' });
    expect(usageError(['--report-dir', ''])).toMatch(/^--report-dir is empty/);
    expect(usageError(['--seed', ''], { CONFORMANCE_SEED: '7' })).toMatch(/^--seed is empty/);
  });

  it('names a setting read from the environment by its variable, one given as a flag by the flag', () => {
    expect(usageError([], { CONFORMANCE_CONCURRENCY: 'abc' })).toBe('CONFORMANCE_CONCURRENCY must be a whole number >= 1, got "abc"');
    expect(usageError([], { CONFORMANCE_PROFILE: 'huge' })).toMatch(/^CONFORMANCE_PROFILE must be one of quick, standard, deep/);
    expect(usageError([], { CONFORMANCE_SEED: '1', CONFORMANCE_SHARD: '4/3' })).toMatch(/^CONFORMANCE_SHARD takes i\/n .* e\.g\. CONFORMANCE_SHARD=2\/3 /);
    expect(usageError(['--concurrency', 'abc'], { CONFORMANCE_CONCURRENCY: '4' })).toBe('--concurrency must be a whole number >= 1, got "abc"');
    expect(usageError(['--shard', '1/3'])).toMatch(/^--shard needs --seed \(or CONFORMANCE_SEED\)/);
  });

  it('reads --lifetime and CONFORMANCE_LIFETIME as a duration, off by default, and refuses what is none', () => {
    expect(resolve([]).lifetimeMs).toBeUndefined();
    expect(resolve(['--lifetime', '30s']).lifetimeMs).toBe(30_000);
    expect(resolve([], { CONFORMANCE_LIFETIME: '5m' }).lifetimeMs).toBe(300_000);
    expect(resolve(['--lifetime', '90']).lifetimeMs).toBe(90_000);
    expect(resolve(['--lifetime', '0']).lifetimeMs).toBeUndefined();
    expect(usageError(['--lifetime', 'soon'])).toMatch(/^--lifetime must be a duration of at most 24h such as 30s/);
    expect(usageError(['--lifetime', '25h'])).toMatch(/^--lifetime must be a duration/);
    expect(usageError([], { CONFORMANCE_LIFETIME: '-1s' })).toMatch(/^CONFORMANCE_LIFETIME must be a duration/);
  });

  it('takes --state for a remote target only: the embedded server a run starts remembers nothing', () => {
    expect(resolve([...remote, '--state', 'state.json']).stateFile).toBe('state.json');
    expect(resolve(remote, { CONFORMANCE_STATE: 's.json' }).stateFile).toBe('s.json');
    expect(usageError(['--state', 'state.json'])).toMatch(/^--state needs --base-url: the embedded server a run starts is new every time/);
    expect(usageError([...remote, '--state', ' '])).toMatch(/^--state is empty/);
  });

  it('returns null for --help', () => {
    expect(resolveRunConfig(['--help'], {}, seed)).toBeNull();
  });
});

/** Coded errors: each command's exit code comes from the error, in one place (exitCodeOfError). */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, UnknownAccountsError, UnreachableError, UsageError, exitCodeOfError } from '../../src/core/errors.ts';

describe('coded errors', () => {
  it.each([
    [new UsageError('bad flag'), 'usage', 2, 'UsageError'],
    [new UnknownAccountsError(['a']), 'unknown-accounts', 2, 'UnknownAccountsError'],
    [new UnreachableError('cannot reach'), 'unreachable', 3, 'UnreachableError'],
    [new AuthenticationError('refused'), 'authentication', 3, 'AuthenticationError'],
  ])('%s has its code and exit code', (error, code, exitCode, name) => {
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(exitCodeOfError(error)).toBe(exitCode);
  });

  it('gives no exit code for a bug (the command rethrows it with its stack)', () => {
    expect(exitCodeOfError(new TypeError('x is undefined'))).toBeUndefined();
    expect(exitCodeOfError('a string')).toBeUndefined();
  });
});

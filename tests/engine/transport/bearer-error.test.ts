/** The error code of a Bearer challenge (RFC 6750 section 3), as a 401 to the run's token gives it. */
import { describe, expect, it } from 'vitest';
import { bearerError, renewalMayHelp } from '../../../src/engine/transport/bearer-error.ts';

describe('bearerError', () => {
  it.each([
    ['Bearer realm="example", error="invalid_token", error_description="The access token expired"', 'invalid_token'],
    ['bearer error=invalid_token', 'invalid_token'],
    ['BEARER error="INVALID_TOKEN"', 'invalid_token'],
    ['Basic realm="a", Bearer error="invalid_request", error_description="x"', 'invalid_request'],
    ['Bearer realm="a", scope="write", error="insufficient_scope"', 'insufficient_scope'],
  ])('%s: %s', (header, code) => {
    expect(bearerError(header)).toBe(code);
  });

  it.each([['Bearer'], ['Bearer realm="api"'], ['Basic realm="x"'], ['Bearer realm="x", Basic error="invalid_request"'], [''], [undefined]])(
    'no error code of the Bearer challenge in %j',
    (header) => {
      expect(bearerError(header)).toBeUndefined();
      expect(renewalMayHelp(header)).toBe(true);
    },
  );

  it('a code other than invalid_token says a new token would not help', () => {
    expect(renewalMayHelp('Bearer error="invalid_token"')).toBe(true);
    expect(renewalMayHelp('Bearer error="invalid_request"')).toBe(false);
    expect(renewalMayHelp('Bearer error="insufficient_scope"')).toBe(false);
  });
});

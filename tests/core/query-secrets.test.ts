/** Credentials in query strings: named like one, replaced wherever a URL is recorded; a token endpoint's URL loses every query value. */
import { describe, expect, it } from 'vitest';
import { isSecretQueryName, redactQuerySecrets, urlWithoutSecrets } from '../../src/core/query-secrets.ts';
import { displayUrl } from '../../src/core/url.ts';
import { Redactor } from '../../src/report/model/redact.ts';

describe('query-string secrets', () => {
  it('knows the names of credentials, and leaves the others', () => {
    for (const name of [
      'api_key',
      'apikey',
      'API-KEY',
      'key',
      'access_token',
      'token',
      'client_secret',
      'password',
      'X-Amz-Signature',
      'sig',
      'auth',
      'session_id',
      'x%5Fapi%5Fkey',
    ])
      expect(isSecretQueryName(name), name).toBe(true);
    for (const name of ['page', 'limit', 'region', 'design', 'id']) expect(isSecretQueryName(name), name).toBe(false);
  });

  it('replaces the secret values of a URL, keeping the rest as typed; every value of a credential URL', () => {
    expect(urlWithoutSecrets('https://x/token?api_key=k-123&region=eu#top')).toBe('https://x/token?api_key=[REDACTED]&region=eu#top');
    expect(urlWithoutSecrets('https://x/token?api_key=k-123&region=eu&bare', true)).toBe('https://x/token?api_key=[REDACTED]&region=[REDACTED]&[REDACTED]');
    expect(urlWithoutSecrets('https://x/token')).toBe('https://x/token');
    expect(displayUrl('https://user:pw@x/token?sig=abc', true)).toBe('https://x/token?sig=[REDACTED]');
    expect(displayUrl('https://x/?page=2&token=t-1')).toBe('https://x/?page=2&token=[REDACTED]');
  });

  it('finds them in free text: a message, a JSON string, an HTML-escaped URL', () => {
    const text = [
      'the token endpoint https://auth.example/token?api_key=k-123 answered 500',
      JSON.stringify({ url: 'https://t.example/v2/x?page=1&access_token=t-456' }),
      '<a href="https://t.example/?a=1&amp;signature=s-789">',
    ].join('\n');
    const out = redactQuerySecrets(text);
    expect(out).not.toMatch(/k-123|t-456|s-789/);
    expect(out).toContain('?api_key=[REDACTED] answered 500');
    expect(out).toContain('page=1&access_token=[REDACTED]"');
    expect(out).toContain('&amp;signature=[REDACTED]"');
    // Every report file goes through the Redactor, which does the same.
    expect(new Redactor([]).text(text)).toBe(out);
    expect(redactQuerySecrets('a=b and ?page=2')).toBe('a=b and ?page=2');
  });
});

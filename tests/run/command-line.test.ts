/** The command line a bundle's manifest records: as typed, the credentials replaced. */
import { describe, expect, it } from 'vitest';
import { commandLineWithoutSecrets } from '../../src/run/command-line.ts';

describe('commandLineWithoutSecrets', () => {
  it('keeps every word but the values of --token and --client-secret, in both spellings', () => {
    const line = commandLineWithoutSecrets([
      'run',
      '--base-url',
      'https://sandbox.example.com',
      '--client-id',
      'client-1',
      '--client-secret',
      's3cr3t value',
      '--token=tok-123',
      '--rate-limit',
      '5',
      '--bundle',
      'evidence.tar.gz',
    ]);
    expect(line).toBe(
      'conformance run --base-url https://sandbox.example.com --client-id client-1 --client-secret [REDACTED] --token=[REDACTED] --rate-limit 5 --bundle evidence.tar.gz',
    );
    expect(line).not.toMatch(/s3cr3t|tok-123/);
  });

  it('quotes a word the shell would split, and a secret flag left without its value stays as typed', () => {
    expect(commandLineWithoutSecrets(['run', '--report-dir', 'my reports', '--token'])).toBe("conformance run --report-dir 'my reports' --token");
  });

  it('drops every query value of --auth-url, and the secret-looking ones of any other URL, in both spellings', () => {
    const line = commandLineWithoutSecrets([
      'run',
      '--auth-url',
      'https://auth.example/token?api_key=k-123&tenant=acme',
      '--base-url=https://sandbox.example/?sig=s-456&region=eu',
      '--client-id',
      'client-1',
      '--rule',
      'id.*?',
    ]);
    expect(line).toBe(
      "conformance run --auth-url 'https://auth.example/token?api_key=[REDACTED]&tenant=[REDACTED]' '--base-url=https://sandbox.example/?sig=[REDACTED]&region=eu' --client-id client-1 --rule 'id.*?'",
    );
    expect(commandLineWithoutSecrets(['run', '--auth-url=https://a/t?api_key=k-123'])).toBe("conformance run '--auth-url=https://a/t?api_key=[REDACTED]'");
  });
});

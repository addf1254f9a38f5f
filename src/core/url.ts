/** URL facts shared by the configuration, the transport and the embedded server's command. */
import { urlWithoutSecrets } from './query-secrets.ts';

/**
 * A URL fit for a message: user info (which may hold credentials) is dropped, and so are the
 * query values named like a credential (`?api_key=`), or every query value when `credential`
 * (a token endpoint's URL).
 */
export function displayUrl(url: string, credential = false): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return urlWithoutSecrets(url, credential);
    parsed.username = '';
    parsed.password = '';
    return urlWithoutSecrets(parsed.toString(), credential);
  } catch {
    return urlWithoutSecrets(url, credential);
  }
}

/** A loopback host name or address: localhost, 127.0.0.0/8, ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

/** True when a base URL points at this machine. */
export function isLoopback(baseUrl: string): boolean {
  return isLoopbackHost(new URL(baseUrl).hostname);
}

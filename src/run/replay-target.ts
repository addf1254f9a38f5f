/**
 * Where a replay sends, and with what (docs/design.md, "A guest in a shared sandbox"): credentials
 * go only to a base URL given on replay's own command line or environment, never to one read from
 * an input file. Without one, the replay targets a fresh embedded server (for a report of the
 * embedded server, with its reading and fault); a report of another target asks for --base-url.
 * A redacted input (--redact-personal stand-ins) is refused against a live target: its stand-ins
 * would be written into real accounts.
 */
import { UsageError } from '../core/errors.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { shellWord } from '../report/model/curl.ts';
import { READING_KEYS } from '../server/reading.ts';
import { parseReading } from '../server/reading.ts';
import type { RunConfig } from './run-config.ts';

/** The embedded server a report names (`target.reading`: its reading fields, `fault`, `server`) as run settings. */
export function embeddedServerOf(
  reading: Readonly<Record<string, string>> | undefined,
): Pick<RunConfig, 'reading'> & Partial<Pick<RunConfig, 'fault' | 'strictServer'>> {
  const flagOf = Object.fromEntries(Object.entries(READING_KEYS).map(([flag, field]) => [field, flag]));
  const pairs: Record<string, string> = {};
  for (const [field, value] of Object.entries(reading ?? {})) if (flagOf[field]) pairs[flagOf[field]] = value;
  return {
    reading: parseReading(pairs),
    ...(reading?.fault ? { fault: reading.fault } : {}),
    ...(reading?.server === 'strict' ? { strictServer: true } : {}),
  };
}

/**
 * Refuses, before anything is sent, a replay that would send credentials to a host named in the
 * input: a report of another target and no base URL of the user's.
 */
export function checkReportTarget(recorded: { baseUrl: string; embedded: boolean }, given: string | undefined): void {
  if (given !== undefined || recorded.embedded) return;
  throw new UsageError(
    `the report's target is ${recorded.baseUrl}; replay sends credentials only to a base URL you give it: add --base-url ${shellWord(recorded.baseUrl)} (or CONFORMANCE_BASE_URL) with its --fiat-account-id`,
  );
}

/** A remote target needs the user's credentials; the embedded server has its own. */
export function checkCredentials(baseUrl: string | undefined, auth: AuthConfig): void {
  if (baseUrl !== undefined && auth.kind === 'none')
    throw new UsageError('a remote target needs credentials: --token T, or --auth-url URL --client-id ID --client-secret S');
}

/** Refuses a redacted input against a live target (`why`: how it is known to be redacted). */
export function checkRedaction(file: string, redacted: string | undefined, baseUrl: string | undefined): void {
  if (redacted === undefined || baseUrl === undefined) return;
  throw new UsageError(
    `${file} is redacted (${redacted}): its stand-ins would be written into the accounts of ${baseUrl}; replay it against the embedded server (leave out --base-url), or replay the unredacted report folder`,
  );
}

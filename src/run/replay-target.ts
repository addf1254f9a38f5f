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
import { DEFAULT_READING, parseReading, READING_KEYS } from '../server/reading.ts';
import type { GivenSettings } from './given-settings.ts';
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

/**
 * The base URL a replay sends to, from --base-url or CONFORMANCE_BASE_URL, or none (a fresh
 * embedded server). For a report of the embedded server only the command line's counts: a
 * CONFORMANCE_BASE_URL left in the environment or a .env (`conformance serve`'s file) would send
 * the embedded run's failures to another server and ask for its credentials; `note` says so.
 */
export function replayBaseUrl(settings: GivenSettings, recorded: { embedded: boolean } | undefined): { baseUrl?: string; note?: string } {
  const given = settings.get('base-url');
  if (given === undefined) return {};
  const baseUrl = String(given.value).replace(/\/+$/, '');
  if (recorded?.embedded && given.from === 'env')
    return {
      note: `note: ${given.name} (${baseUrl}) is not used: the report's run was against the embedded server, so the replay starts a fresh one; give --base-url to replay against ${baseUrl}`,
    };
  return { baseUrl };
}

/**
 * The line that names where a replay sends, printed before anything is sent: a live target and
 * where its URL came from, or a fresh embedded server with its fault and reading (and, when the
 * recorded run was against another target, that it is not that one).
 */
export function replayTargetLine(
  target: { baseUrl: string; embedded: boolean; reading?: Readonly<Record<string, string>> },
  recorded: { baseUrl: string; embedded: boolean } | undefined,
  source: string | undefined,
): string {
  if (!target.embedded) return `target ${target.baseUrl}${source ? ` (from ${source})` : ''}`;
  const server = `a fresh embedded reference server (${embeddedWords(target.reading)})`;
  if (recorded === undefined) return `target ${target.baseUrl}: ${server}; give --base-url to replay against your target`;
  if (recorded.embedded) return `target ${target.baseUrl}: ${server}, as the report's run`;
  return `target ${target.baseUrl}: ${server}, not the run's target ${recorded.baseUrl}; give --base-url ${shellWord(recorded.baseUrl)} to replay there`;
}

/** An embedded server's fault and the readings it does not take by default, in words. */
function embeddedWords(reading: Readonly<Record<string, string>> | undefined): string {
  const flagOf = Object.fromEntries(Object.entries(READING_KEYS).map(([flag, field]) => [field, flag]));
  const defaults = DEFAULT_READING as unknown as Record<string, unknown>;
  const readings = Object.entries(reading ?? {}).filter(([field, value]) => flagOf[field] && String(defaults[field]) !== value);
  return [
    reading?.fault ? `fault ${reading.fault}` : 'no fault',
    ...readings.map(([field, value]) => `${flagOf[field]}=${value}`),
    ...(reading?.server === 'strict' ? ['strict'] : []),
  ].join(', ');
}

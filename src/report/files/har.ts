/**
 * exchanges.har: every exchange of the run as HAR 1.2, so it opens in browser dev tools and HAR
 * viewers. Exchanges that got no response (timeout, dropped connection) are entries with status 0
 * and an `_error` field, as browsers record aborted requests. Bodies past HAR_BODY_CHARS are cut,
 * with a `comment` that says so: a run of 200,000 exchanges must stay a file one can open.
 */
import { STATUS_CODES } from 'node:http';
import { bodyText, type Exchange, type UnjudgedExchange } from '../../core/exchange.ts';
import { caseIntent, type CaseIntent, type SequenceStep, type UnauthenticatedKind } from '../../core/case.ts';
import { type TwinLinker, twinLinks } from './twin-link.ts';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** Why no response came back. */
  _error?: { kind: string; message: string };
  /** Says what an entry without a case is (the reachability check, judged by no rule). */
  comment?: string;
  /**
   * The case this request carried, so an entry can be traced to its rule; absent on a request no
   * rule judged. `auth`: the credentials the case sent instead of the run's (the Authorization
   * header is redacted), so a replay of the HAR sends the same. `twin` and `input` link a case
   * refused with a valid twin to that twin's request (twin-link.ts).
   */
  _case?: CaseIntent & { auth?: UnauthenticatedKind; twin?: string; input?: string; sequence?: SequenceStep };
  /** Which of the run's fetched access tokens carried the request (Exchange.tokenGeneration): the token itself is redacted. */
  _tokenGeneration?: number;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] };
}

const pairs = (headers: Record<string, string>): HarHeader[] => Object.entries(headers).map(([name, value]) => ({ name, value: String(value) }));

const header = (headers: Record<string, string>, name: string): string | undefined => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

function queryString(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** Characters of a body an entry keeps. */
export const HAR_BODY_CHARS = 64 * 1024;

/** The text, cut to HAR_BODY_CHARS (never inside a surrogate pair), and a comment when it was cut. */
function cut(text: string, note = ''): { text: string; comment?: string } {
  const notes = note ? [note] : [];
  if (text.length > HAR_BODY_CHARS) {
    const end = /[\uD800-\uDBFF]/.test(text[HAR_BODY_CHARS - 1]) ? HAR_BODY_CHARS - 1 : HAR_BODY_CHARS;
    notes.unshift(`body cut to its first ${end} of ${text.length} characters`);
    text = text.slice(0, end);
  }
  return { text, ...(notes.length ? { comment: notes.join('; ') } : {}) };
}

/** What the transport noted of a response body: cut at its cap, or not UTF-8. */
function received(response: NonNullable<Exchange['response']>): string {
  const notes: string[] = [];
  if (response.truncated) notes.push(`the harness kept ${response.truncated.keptBytes} of ${response.truncated.receivedBytes} bytes received`);
  if (response.invalidUtf8) notes.push('the body is not valid UTF-8 (shown with U+FFFD)');
  return notes.join('; ');
}

/** What the entry of the reachability check says of itself: it is counted, and no rule judges it. */
export const REACHABILITY_COMMENT =
  'reachability check before the first case: is anything answering at the base URL? Counted in the requests; no rule judges it';

/** What an attempt sent again says of itself (a 429 waited out, a 401 to a token since renewed). */
export const RESENT_COMMENT =
  'an attempt sent again (a 429 waited out, or a 401 before a renewed token): the next entry of this request is the one judged; counted in the requests, judged by no rule';

const UNJUDGED_COMMENT: Record<UnjudgedExchange['unjudged'], string> = { 'reachability-check': REACHABILITY_COMMENT, 'sent-again': RESENT_COMMENT };

/** The entries of a judged exchange: the attempts sent again first, then the exchange. */
export function harEntries(exchange: Exchange): HarEntry[] {
  return [...(exchange.resent ?? []).map((attempt) => harEntry(attempt)), harEntry(exchange)];
}

/**
 * One request as a HAR entry; a request no rule judged (the reachability check, an attempt sent
 * again) carries a `comment` that says which instead of `_case`.
 */
export function harEntry(exchange: Exchange | UnjudgedExchange, link?: TwinLinker): HarEntry {
  const { request, response, error } = exchange;
  const testCase = 'testCase' in exchange ? exchange.testCase : undefined;
  const body = bodyText(exchange.request);
  const time = Math.max(0, exchange.durationMs);
  const responseBytes = response ? (response.truncated?.receivedBytes ?? Buffer.byteLength(response.rawBody, 'utf8')) : 0;
  return {
    startedDateTime: exchange.startedAt,
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: queryString(request.url),
      ...(body !== undefined ? { postData: { mimeType: header(request.headers, 'content-type') ?? 'application/json', ...cut(body) } } : {}),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body, 'utf8'),
    },
    response: response
      ? {
          status: response.status,
          statusText: STATUS_CODES[response.status] ?? '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: pairs(response.headers),
          content: {
            size: responseBytes,
            mimeType: header(response.headers, 'content-type') ?? 'x-unknown',
            ...cut(response.rawBody, received(response)),
          },
          redirectURL: header(response.headers, 'location') ?? '',
          headersSize: -1,
          bodySize: responseBytes,
        }
      : {
          status: 0,
          statusText: '',
          httpVersion: '',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
    cache: {},
    // Only the total is measured; HAR wants the phases, so the wait carries it.
    timings: { send: 0, wait: time, receive: 0 },
    ...(error ? { _error: { kind: error.kind, message: error.message } } : !response ? { _error: { kind: 'other', message: 'no response recorded' } } : {}),
    ...(exchange.tokenGeneration !== undefined ? { _tokenGeneration: exchange.tokenGeneration } : {}),
    ...(testCase
      ? {
          _case: {
            ...caseIntent(testCase),
            ...(testCase.auth ? { auth: testCase.auth } : {}),
            ...(testCase.sequence ? { sequence: testCase.sequence } : {}),
            ...twinLinks(testCase, link),
          },
        }
      : { comment: UNJUDGED_COMMENT[(exchange as UnjudgedExchange).unjudged] }),
  };
}

/** The HAR document of a run's exchanges, in the order they started. */
export function buildHar(exchanges: Exchange[], creator: { name: string; version: string }): Har {
  const ordered = [...exchanges].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return { log: { version: '1.2', creator: { name: creator.name, version: creator.version }, entries: ordered.flatMap((exchange) => harEntries(exchange)) } };
}

import type { TestCase } from './case.ts';

/** A request as sent. Header values that carry credentials are already redacted. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

/** A response as received. `body` is the parsed JSON when `json` is true. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  rawBody: string;
  json: boolean;
  body?: unknown;
  /**
   * Set when the body was longer than the harness keeps (src/engine/transport/http-call.ts):
   * `rawBody` holds the first `keptBytes`, the rest was counted, not stored. Such a body is judged
   * as not JSON (`json: false`): its end is missing. `receivedBytes` is a lower bound when the
   * body was cut off (at the deadline, or past 256 MiB).
   */
  truncated?: { keptBytes: number; receivedBytes: number };
  /** Set when the body's bytes are not valid UTF-8 (RFC 8259 8.1): `rawBody` shows them with U+FFFD. */
  invalidUtf8?: boolean;
}

/** Why no usable response came back. */
export interface TransportError {
  kind: 'timeout' | 'connection' | 'rate-limited' | 'other';
  message: string;
}

/** One request/response pair, the unit every check judges. */
export interface Exchange {
  testCase: TestCase;
  request: RecordedRequest;
  response?: RecordedResponse;
  error?: TransportError;
  startedAt: string;
  durationMs: number;
  /**
   * The attempts of this request the harness sent again (a 429 waited out, a 401 to a token since
   * renewed), oldest first: no rule judges them; exchanges.har records them and the count counts them.
   */
  resent?: UnjudgedExchange[];
  /**
   * Which of the run's fetched access tokens carried the request: 1 the first, one more at each
   * renewal (never the token itself). Absent when the run's own token was not sent (a case
   * without credentials or a made-up one) or is not fetched (a static token: no renewal).
   */
  tokenGeneration?: number;
}

/**
 * A request the run sent that no rule judges: the reachability check before the first case
 * (engine/transport/reachability.ts), an attempt sent again (Exchange.resent). The target received
 * it, so exchanges.har records it and the request count counts it (docs/design.md section 5.8).
 */
export type UnjudgedExchange = Omit<Exchange, 'testCase' | 'resent'> & { unjudged: 'reachability-check' | 'sent-again' };

/**
 * Hears every request that went to the target, once it is answered (or given up): each case's
 * exchange, each attempt sent again, each reachability attempt. exchanges.har is written from it,
 * so it holds exactly the requests the transport counts, judged or not (a request sent ahead of a
 * run that stopped is one the target received).
 */
export type SentRecorder = (sent: Exchange | UnjudgedExchange) => void;

/** The text a body goes out as: a raw (malformed) body verbatim, else the JSON; undefined for none. */
export function bodyText(holder: { body?: unknown; rawBody?: string }): string | undefined {
  if (holder.rawBody !== undefined) return holder.rawBody;
  return holder.body !== undefined ? JSON.stringify(holder.body) : undefined;
}

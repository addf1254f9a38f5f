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
}

/** The text a body goes out as: a raw (malformed) body verbatim, else the JSON; undefined for none. */
export function bodyText(holder: { body?: unknown; rawBody?: string }): string | undefined {
  if (holder.rawBody !== undefined) return holder.rawBody;
  return holder.body !== undefined ? JSON.stringify(holder.body) : undefined;
}

/**
 * What a finding keeps of the exchange that showed it. The checks judged the whole answer (up to
 * the transport's 1 MiB cap); the evidence keeps its first EVIDENCE_BODY_CHARS, so that ~50 rules
 * with 5 findings each stay a report one can open and a run's memory stays small when every
 * answer is huge. A cut body is marked `truncated` and is `json: false`, as the transport marks
 * one it cut (src/core/exchange.ts).
 */
import type { Exchange, RecordedResponse } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';

/** Characters of a response body a finding keeps. */
export const EVIDENCE_BODY_CHARS = 64 * 1024;
/** Characters of a problem's message (a check may quote a value the target made enormous). */
export const EVIDENCE_MESSAGE_CHARS = 2000;

/** `text` cut to `limit` characters, never inside a surrogate pair. */
function cut(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

function cutResponse(response: RecordedResponse): RecordedResponse {
  if (response.rawBody.length <= EVIDENCE_BODY_CHARS) return response;
  const { body: _parsed, ...rest } = response;
  const rawBody = cut(response.rawBody, EVIDENCE_BODY_CHARS);
  const receivedBytes = response.truncated?.receivedBytes ?? Buffer.byteLength(response.rawBody, 'utf8');
  return { ...rest, rawBody, json: false, truncated: { keptBytes: Buffer.byteLength(rawBody, 'utf8'), receivedBytes } };
}

/** The exchange as a finding keeps it. */
export function asEvidence(exchange: Exchange): Exchange {
  return exchange.response && exchange.response.rawBody.length > EVIDENCE_BODY_CHARS ? { ...exchange, response: cutResponse(exchange.response) } : exchange;
}

/** The problem as a finding keeps it. */
export function problemAsEvidence(problem: Problem): Problem {
  return problem.message.length > EVIDENCE_MESSAGE_CHARS ? { ...problem, message: `${cut(problem.message, EVIDENCE_MESSAGE_CHARS)}…` } : problem;
}

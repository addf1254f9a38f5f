/**
 * What a finding keeps of the exchange that showed it. The checks judged the whole answer (up to
 * the transport's 1 MiB cap); the evidence keeps its first EVIDENCE_BODY_CHARS, so that ~50 rules
 * with 5 findings each stay a report one can open and a run's memory stays small when every
 * answer is huge. A cut body is marked `truncated` and is `json: false`, as the transport marks
 * one it cut (src/core/exchange.ts).
 */
import type { Exchange, RecordedResponse } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import { cutText } from '../core/cut-text.ts';

/** Characters of a response body a finding keeps. */
export const EVIDENCE_BODY_CHARS = 64 * 1024;
/** Characters of a problem's message (a check may quote a value the target made enormous). */
export const EVIDENCE_MESSAGE_CHARS = 2000;

function cutResponse(response: RecordedResponse): RecordedResponse {
  if (response.rawBody.length <= EVIDENCE_BODY_CHARS) return response;
  const { body: _parsed, ...rest } = response;
  const rawBody = cutText(response.rawBody, EVIDENCE_BODY_CHARS);
  const receivedBytes = response.truncated?.receivedBytes ?? Buffer.byteLength(response.rawBody, 'utf8');
  return { ...rest, rawBody, json: false, truncated: { keptBytes: Buffer.byteLength(rawBody, 'utf8'), receivedBytes } };
}

/** The last exchange cut: one answer that fails ten rules is cut once, and kept once. */
let lastCut: { from: Exchange; to: Exchange } | undefined;

/** The exchange as a finding keeps it. */
export function asEvidence(exchange: Exchange): Exchange {
  if (!exchange.response || exchange.response.rawBody.length <= EVIDENCE_BODY_CHARS) return exchange;
  if (lastCut?.from !== exchange) lastCut = { from: exchange, to: { ...exchange, response: cutResponse(exchange.response) } };
  return lastCut.to;
}

/**
 * A value of a problem's params as a finding keeps it: whole when its JSON text is short; else a
 * long string is cut, a list of strings (identity ids) stays a list of cut strings, and any other
 * value (an object the target made enormous) becomes its JSON text, cut: EVIDENCE_MESSAGE_CHARS
 * characters each.
 */
function valueAsEvidence(value: unknown): unknown {
  if (typeof value === 'string') return value.length > EVIDENCE_MESSAGE_CHARS ? `${cutText(value, EVIDENCE_MESSAGE_CHARS)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  if (text.length <= EVIDENCE_MESSAGE_CHARS) return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map(valueAsEvidence);
  return `${cutText(text, EVIDENCE_MESSAGE_CHARS)}…`;
}

/** Params as a finding keeps them: they, and ajv's keyword params, stay objects; each value is kept as valueAsEvidence keeps it. */
function paramsAsEvidence(params: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(params).length <= EVIDENCE_MESSAGE_CHARS) return params;
  const keep = ([key, value]: [string, unknown]): [string, unknown] => [
    key,
    key === 'keywordParams' && typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(keep)) : valueAsEvidence(value),
  ];
  return Object.fromEntries(Object.entries(params).map(keep));
}

/** The problem as a finding keeps it: a message or a param the target made enormous is cut. */
export function problemAsEvidence(problem: Problem): Problem {
  const message = problem.message.length > EVIDENCE_MESSAGE_CHARS ? `${cutText(problem.message, EVIDENCE_MESSAGE_CHARS)}…` : problem.message;
  const params = paramsAsEvidence(problem.params) as Problem['params'];
  return message === problem.message && params === problem.params ? problem : ({ ...problem, message, params } as Problem);
}

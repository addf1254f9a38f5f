/** What every operation handler gets, and the refusals they share. */
import type { ServerResponse } from 'node:http';
import type { Operation, ServerBehaviour, Violation } from './behaviour.ts';
import type { Reading } from './reading.ts';
import { sendJson } from './http-io.ts';
import { parseJsonObject } from './json-body.ts';
import { sendProblem } from './problem.ts';
import type { StrictRefusal } from './strict-open-points.ts';

export interface HandlerContext {
  reading: Reading;
  behaviour: ServerBehaviour;
  /** The strict variant: open points restricted (strict-open-points.ts). */
  strict: boolean;
  /** The API user the bearer token belongs to (ref_id is unique per API user). */
  owner: string;
}

/** The body as a JSON object, or undefined once the refusal is sent (400 malformed, rejectStatus otherwise). */
export function parseBodyOrRefuse(bytes: Buffer, operation: Operation, context: HandlerContext, res: ServerResponse): Record<string, unknown> | undefined {
  if (bytes.length === 0) {
    // An empty or missing body: no JSON, refused below, unless the reading (or a fault) takes it as {}.
    const handling = context.behaviour.emptyBody(operation);
    if (handling === 'fail') return void sendProblem(res, 500, 'internal error');
    if (handling === 'unchecked' || context.reading.emptyBody === 'empty-object') return {};
  }
  const parsed = parseJsonObject(bytes);
  if (parsed.kind === 'object') return parsed.body;
  const status = parsed.kind === 'malformed' ? context.behaviour.malformedJsonStatus(operation) : context.reading.rejectStatus;
  sendProblem(res, status, status >= 500 ? 'internal error while reading the request body' : parsed.detail);
  return undefined;
}

/** True when a fault takes this (empty) body as {} without validating it. */
export const takenUnchecked = (bytes: Buffer, operation: Operation, context: HandlerContext): boolean =>
  bytes.length === 0 && context.behaviour.emptyBody(operation) === 'unchecked';

/** Sends the validation refusal with every reason; status per the reading (400 or 422). */
export function refuseInvalid(res: ServerResponse, violations: Violation[], context: HandlerContext, operation: Operation): void {
  if (violations.some((v) => context.behaviour.failsOn(operation, v.concern))) {
    sendProblem(res, 500, 'internal error');
    return;
  }
  // A server policy may carry its own status; the document's rules take the reading's.
  const status = violations.find((v) => v.status !== undefined)?.status ?? context.reading.rejectStatus;
  sendProblem(res, status, `the request body is invalid (${violations.length} error${violations.length === 1 ? '' : 's'})`, {
    errors: violations.map(({ instancePath, message }) => ({ instancePath, message })),
  });
}

/**
 * The strict variant's refusal of an open point, in the vendor's words rather than a problem
 * document: the field and the reason, with the reading's status.
 */
export function refuseOpenPoint(res: ServerResponse, refusal: StrictRefusal, context: HandlerContext): void {
  sendJson(res, context.reading.rejectStatus, { error: 'invalid_field', ...refusal });
}

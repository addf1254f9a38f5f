/**
 * What a finding is, as data: each problem a check, a scenario or a sequence finds carries a
 * `kind` from this closed vocabulary and `params` typed by that kind, besides its message for
 * people (docs/design.md section 5.5, `rules[].failures[].kind`). A consumer groups a rule's
 * failures by `kind` and `params.field` without reading the prose, as it would group ajv's errors
 * by keyword. schemas/conformance-report.schema.json states the same vocabulary for the report.
 *
 * `field` is where the finding points: a JSON pointer into the response body (the failure's
 * instancePath), a header's name (lower case) for `header`, and the request field, dotted as in
 * the observed contract, for `unexplained-refusal`. `received` is absent when the answer had no
 * such value.
 */
import type { TransportError } from '../core/exchange.ts';
import type { OpenKind } from '../core/open-point.ts';

/** The answers a status finding wanted: a class, an exact status, or anything but a 5xx. */
export type ExpectedStatus = '2xx' | '4xx' | '2xx or 4xx' | '401' | '404' | 'not 5xx';

/** Why a body could not be judged as JSON text, or an error body as UTF-8 text. */
export type UnreadableReason = 'too-large' | 'not-utf8' | 'not-json' | 'empty';

export interface ProblemParams {
  /** An error of the response schema, as ajv gives it: its keyword and params; `received` when the failing value is a scalar. */
  schema: { field: string; keyword: string; keywordParams: Record<string, unknown>; received?: unknown };
  /** An answer with a status the case's intent does not allow. */
  status: { expected: ExpectedStatus; received: number };
  /** No usable answer: a timeout, a dropped connection, a 429 that never ended. */
  'no-answer': { error: TransportError['kind'] };
  /** A body that is not JSON, or not UTF-8, or too large to judge; `status` of the answer that carried it. */
  'unreadable-body': { reason: UnreadableReason; status: number; receivedBytes?: number; keptBytes?: number };
  /** A response header without the value the rule asks (Content-Type, WWW-Authenticate). */
  header: { field: string; expected: string; received?: string };
  /** A value not in the form the document states: an RFC 3339 timestamp with an offset, a non-empty id. */
  format: { field: string; format: 'rfc3339' | 'non-empty'; received: unknown };
  /** A value that must equal another: the path's id, the cip_id it mirrors, the date sent at midnight UTC, the type PERSON. */
  mismatch: { field: string; expected: unknown; received?: unknown };
  /** A value the request sent that the answer does not give back. */
  'not-reflected': { field: string; sent: unknown; received?: unknown };
  /** A status of a new identity that is not a pending one. */
  'not-pending': { field: string; received: unknown };
  /** A timestamp before one it may not precede (created_at, the previous updated_at, the answer's Date less `toleranceMs`). */
  'timestamp-order': { field: string; received: string; notBefore: string; toleranceMs?: number };
  /** A value an earlier update stored, not sent since, shown changed. */
  'not-persisted': { field: string; expected: string; received?: unknown };
  /** A value only another account was sent, shown by this one (accounts numbered from 1). */
  leaked: { field: string; received: string; account: number; from: number };
  /** Two ref_ids that got one identity. */
  'identity-shared': { field: string; refId: string; id: string; firstRefId: string };
  /** One ref_id that created more than one identity; `creates`: the concurrent creates that did. */
  'identity-duplicated': { refId: string; ids: string[]; creates?: number };
  /** A ref_id used again that gave back its identity created anew (another created_at). */
  'identity-recreated': { field: string; refId: string; id: string; expected: string; received: string };
  /** A refusal of a valid open case that the target's other answers show is no limit. */
  'unexplained-refusal': { field: string; openKind: OpenKind; value: string; status: number };
  /** A check that threw: a defect of the harness, never of the target. */
  'check-crashed': { error: string };
}

export type ProblemKind = keyof ProblemParams;

/** Every kind once: the type makes the list complete (the report schema lists the same). */
const EVERY_KIND: { [K in ProblemKind]: true } = {
  schema: true,
  status: true,
  'no-answer': true,
  'unreadable-body': true,
  header: true,
  format: true,
  mismatch: true,
  'not-reflected': true,
  'not-pending': true,
  'timestamp-order': true,
  'not-persisted': true,
  leaked: true,
  'identity-shared': true,
  'identity-duplicated': true,
  'identity-recreated': true,
  'unexplained-refusal': true,
  'check-crashed': true,
};

export const PROBLEM_KINDS = Object.keys(EVERY_KIND) as readonly ProblemKind[];

/** A kind with its params, one union member per kind, so that `kind` narrows `params`. */
export type ProblemData = { [K in ProblemKind]: { kind: K; params: ProblemParams[K] } }[ProblemKind];

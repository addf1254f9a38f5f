import type { Operation, RuleId } from './catalogue.ts';

/**
 * How a case relates to the document: `valid` payloads must be accepted, `boundary` payloads sit
 * exactly on a documented limit and must be accepted, `invalid` payloads break the rule named in
 * `violates` and must not be accepted. A `duplicate` repeats a used ref_id: a rejection and the
 * same resource back are both right (its scenario judges which), and a 2xx body is still a
 * response the shape rules judge.
 */
export type Mode = 'valid' | 'boundary' | 'invalid' | 'duplicate';

/**
 * The ways a request can lack valid credentials: no Authorization header, a made-up bearer token,
 * the Bearer scheme with an empty token, and another scheme (Basic) altogether.
 */
export const UNAUTHENTICATED_KINDS = ['none', 'invalid', 'empty', 'wrong-scheme'] as const;
export type UnauthenticatedKind = (typeof UNAUTHENTICATED_KINDS)[number];

/** One generated request with its intent, so an oracle knows what answer is right. */
export interface TestCase {
  operation: Operation;
  mode: Mode;
  /** invalid cases: the rule this payload breaks. */
  violates?: RuleId;
  /** boundary cases: the limit rule this payload sits on. */
  exercises?: RuleId;
  /** A short human description, e.g. "metadata with 7 pairs". */
  label: string;
  /** The JSON body. */
  body?: unknown;
  /** Sent verbatim instead of `body` (malformed JSON). */
  rawBody?: string;
  /** updateFiatAccount: the fiat account id used in the path. */
  fiatAccountId?: string;
  /** Send without the configured credentials: see UnauthenticatedKind. */
  auth?: UnauthenticatedKind;
  /**
   * invalid and boundary cases: the nearest valid twin (the same payload with the one defect
   * removed, or moved off the limit). When this case is refused, the runner sends the twin: a
   * refused twin means the refusal is about something else, and this case judges nothing.
   */
  control?: TestCase;
}

/** A case's intent as the reports record it (conformance.json failures, HAR entries). */
export interface CaseIntent {
  operation: Operation;
  label: string;
  mode: Mode;
  violates?: RuleId;
  exercises?: RuleId;
}

export function caseIntent(c: TestCase): CaseIntent {
  return {
    operation: c.operation,
    label: c.label,
    mode: c.mode,
    ...(c.violates ? { violates: c.violates } : {}),
    ...(c.exercises ? { exercises: c.exercises } : {}),
  };
}

import type { Operation, RuleId } from './catalogue.ts';
import type { CombinedValue, Intent, OpenProbe } from './open-point.ts';

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
  /**
   * No body at all, yet labelled Content-Type application/json (neither `body` nor `rawBody`): no
   * Content-Length either, what curl -X PUT -H 'Content-Type: application/json' sends.
   */
  bodylessJson?: true;
  /** updateFiatAccount: the fiat account id used in the path. */
  fiatAccountId?: string;
  /** Send without the configured credentials: see UnauthenticatedKind. */
  auth?: UnauthenticatedKind;
  /** A step of an update sequence (rules/update-fiat-account/sequences/): its number in the sequence and its account (from 1), for whoever judges it again. */
  sequence?: SequenceStep;
  /**
   * invalid and boundary cases: the nearest valid twin (the same payload with the one defect
   * removed, or moved off the limit). When this case is refused, the runner sends the twin: a
   * refused twin means the refusal is about something else, and this case judges nothing.
   */
  control?: TestCase;
  /**
   * valid cases on an open point (docs/design.md): the one field and kind of value this case
   * varies on top of a guaranteed body, which is its `control`. Accepting and refusing are both
   * conformant; a refusal is recorded in the observed contract.
   */
  open?: OpenProbe;
  /**
   * A documented rule's case combined with open values the target accepted on their own
   * (rules/open-points/combinations.ts). A valid one may be refused (the combination is the
   * target's limit, never blamed); an invalid or boundary one is judged by its rule as ever, its
   * valid twin holding the same open values.
   */
  combined?: CombinedValue[];
  /**
   * HTTP around the operation (docs/design.md section 2): the method sent instead of the
   * operation's (GET, PATCH ... on its path). Sent only with `around`.
   */
  method?: string;
  /**
   * A case about HTTP around the operation (another method, an empty or a missing body): the one
   * convention rule that judges it. The operation's other rules, its coverage and its observers
   * leave it alone (its answer is no update and no create). Mode `invalid` when only a refusal is
   * right, `valid` (intent open) when a 2xx may be right too; a 5xx is never right.
   */
  around?: RuleId;
  /**
   * A request of the run's own housekeeping, no case of any rule: the restore of a pool account
   * (docs/design.md section 2, "What a run leaves behind"). It is sent, counted and recorded in
   * exchanges.har, but no rule, coverage tally or observer judges it.
   */
  restore?: RestoreStep;
}

/** The requests that put a pool account back as the run found it (src/engine/restore/). */
export type RestoreStep = 'start-read' | 'end-read' | 'write-back' | 'read-back';

/** True for a case about HTTP around the operation: judged by its `around` rule alone. */
export const isAround = (c: Pick<TestCase, 'around'>): boolean => c.around !== undefined;

/** What the document says of the case: open when it varies an open point, forbidden when invalid. */
export function intentOf(c: TestCase): Intent {
  if (c.open) return 'open';
  // Open values combined in a valid body: each was accepted alone, together they are still open.
  if (c.combined && c.mode === 'valid') return 'open';
  // Another method or an empty body that a 2xx may rightly answer: accepting and refusing are both conformant.
  if (c.around && c.mode === 'valid') return 'open';
  return c.mode === 'invalid' ? 'forbidden' : 'guaranteed';
}

/** Where a step of an update sequence stands: step 1 starts a sequence. */
export interface SequenceStep {
  step: number;
  account: number;
}

/** A case's intent as the reports record it (conformance.json failures, HAR entries). */
export interface CaseIntent {
  operation: Operation;
  label: string;
  mode: Mode;
  intent: Intent;
  violates?: RuleId;
  exercises?: RuleId;
  open?: OpenProbe;
  combined?: CombinedValue[];
  around?: RuleId;
  restore?: RestoreStep;
}

export function caseIntent(c: TestCase): CaseIntent {
  return {
    operation: c.operation,
    label: c.label,
    mode: c.mode,
    intent: intentOf(c),
    ...(c.violates ? { violates: c.violates } : {}),
    ...(c.exercises ? { exercises: c.exercises } : {}),
    ...(c.open ? { open: c.open } : {}),
    ...(c.combined ? { combined: c.combined } : {}),
    ...(c.around ? { around: c.around } : {}),
    ...(c.restore ? { restore: c.restore } : {}),
  };
}

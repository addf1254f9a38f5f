/**
 * What the document says of an input (docs/design.md, "What the document guarantees, forbids, and
 * leaves open"), and what a run learns of the target where the document leaves the choice open.
 */
import type { RecordedResponse } from './exchange.ts';
import type { Operation } from './operations.ts';

/**
 * `guaranteed`: the document promises acceptance (a refusal is a documented failure);
 * `forbidden`: it requires rejection (an acceptance is a documented failure);
 * `open`: it leaves the choice to the implementation (accepting and refusing are both conformant).
 */
export type Intent = 'guaranteed' | 'forbidden' | 'open';

/**
 * The kind of value an open case varies, one per case, so a refusal names one field and one kind:
 * - `length`: free text longer than the samples' (or empty);
 * - `alphabet`: free text in one character class other than the samples' (Latin letters), or
 *   accented names composed (NFC) or decomposed (NFD);
 * - `code`: a value of a code list the document does not show (other countries, kinds);
 * - `letter-case`: a code, kind, name or used ref_id in another letter case than the sample's;
 * - `format`: another layout of a number, phone, email, postal code or timestamp, text with outer
 *   or doubled inner spaces, numbers and ids with leading zeros;
 * - `date`: a date of birth outside the comfortable range;
 * - `partial-entry`: a tax entry lacking one of its two members;
 * - `entries`: more entries of an array than the sample's one;
 * - `uniqueness`: a value another identity already holds (a government id);
 * - `metadata`: identity or person metadata beyond the sample's one short pair;
 * - `null-or-empty`: a null or an empty string in an update (refused, ignored, or for an empty
 *   string stored; a null written is a wrong type in the answer, never conformant).
 */
export type OpenKind =
  | 'length'
  | 'alphabet'
  | 'code'
  | 'letter-case'
  | 'format'
  | 'date'
  | 'partial-entry'
  | 'entries'
  | 'uniqueness'
  | 'metadata'
  | 'null-or-empty';

export const OPEN_KINDS: readonly OpenKind[] = [
  'length',
  'alphabet',
  'code',
  'letter-case',
  'format',
  'date',
  'partial-entry',
  'entries',
  'uniqueness',
  'metadata',
  'null-or-empty',
];

/** The one open point an open case varies on top of a guaranteed body. */
export interface OpenProbe {
  /** Where in the request body, dotted: "person_details.first_name", "tax_details[].tax_payer_id". */
  field: string;
  kind: OpenKind;
  /** The value sent, as a short description: "65 characters", "cjk", "GBR", "1899-12-31". */
  value: string;
  /** length: the value's length in code points. */
  length?: number;
  /** alphabet and length: the character class of the text. */
  alphabet?: string;
  /** date: the date sent, YYYY-MM-DD. */
  date?: string;
}

/**
 * An open value a case combines with a documented rule's own body (issue 32, rules over the open
 * space): a value the target accepted on its own earlier in the run, named as the observed
 * contract names it.
 */
export interface CombinedValue {
  field: string;
  kind: OpenKind;
  /** The value's description: "cjk", "GBR", "with spaces". */
  value: string;
}

/** One answer to an open case: what was sent and what the target said. */
export interface ObservedAnswer {
  value: string;
  status: number;
  /** The target's own words on a refusal (cut, redacted), when it gave any: the report reads them from `response`. */
  said?: string;
  /** The engine's: the refusal's response, from which the report takes `said`; never written to a report. */
  response?: RecordedResponse;
}

/**
 * What a run learned of one field and kind of value: what the target accepted and refused. A
 * refusal counts only when the case's guaranteed twin was accepted (the refusal is about the open
 * point, not about something else of the body).
 */
export interface ObservedLimit {
  operation: Operation;
  field: string;
  kind: OpenKind;
  /** Distinct values accepted (descriptions), in order of first sight, at most a few. */
  accepted: string[];
  /** Distinct values refused, with the status and the target's words, at most a few. */
  refused: ObservedAnswer[];
  /** length: the longest text accepted and the shortest refused, in code points. */
  longestAccepted?: number;
  shortestRefused?: number;
  /** date: the earliest and latest date accepted. */
  earliestAccepted?: string;
  latestAccepted?: string;
  /** One line for people: "refuses over 35 characters (accepted up to 35)". */
  summary: string;
}

/** The target's observed contract: every open point a run tried, in a fixed order (operation, field, kind). */
export interface ObservedContract {
  /** Bumped when the shape changes. */
  version: 1;
  limits: ObservedLimit[];
}

/**
 * What `conformance drift` reports: each difference between an OpenAPI document of the two
 * operations and the schemas derived from the API document (docs/design.md, "What the document
 * guarantees, forbids, and leaves open").
 */
import type { OpenKind } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';

/**
 * - `contradiction`: the OpenAPI refuses what the document guarantees, or accepts what it forbids;
 * - `tightening`: the OpenAPI restricts a point the document leaves open (a reasonable limit);
 * - `other`: another difference, for information (members one side lists and the other not);
 * - `not-compared`: a construct of the OpenAPI this comparison cannot read (an external `$ref`,
 *   `oneOf`), named with its pointer so that nothing is skipped silently.
 */
export type DriftKind = 'contradiction' | 'tightening' | 'other' | 'not-compared';

export const DRIFT_KINDS: readonly DriftKind[] = ['contradiction', 'tightening', 'other', 'not-compared'];

/** Whether a run's observed contract shows the target enforcing a tightening. */
export type DriftObservation = 'confirmed' | 'not enforced by the target' | 'not observed';

export interface DriftFinding {
  kind: DriftKind;
  operation: Operation;
  /** The request body or the success response. */
  direction: 'request' | 'response';
  /** Dotted, an array's entries as [] (as the observed contract names fields); "(body)" for the whole body. */
  field: string;
  /** The section of the API document (x-section of our schema), when known. */
  section?: string;
  /** The JSON Schema keyword the difference is about: maxLength, pattern, required, ... */
  keyword: string;
  /** JSON pointer in our schemas: "address.schema.json#/properties/address2". */
  ours: string;
  /** JSON pointer in the OpenAPI document: "#/components/schemas/MailingAddress/properties/address2/pattern". */
  theirs: string;
  /** The document's constraint in words. */
  document: string;
  /** The OpenAPI's constraint in words. */
  openapi: string;
  /** Why it is of its kind, one line: `refuses "" (address2), which the document guarantees`. */
  reason: string;
  /** The OpenAPI's value of the keyword (a bound, a pattern, a list), when it states one: to test observed values against it. */
  constraint?: unknown;
  /** A tightening: the kinds of open value it refuses, to match a run's observed contract. */
  openKinds?: OpenKind[];
  /** With a report (`--report`), for a tightening: what the run saw. */
  observed?: DriftObservation;
}

/** One operation of ours and where the OpenAPI has it, or why it was not found. */
export interface DriftOperation {
  operation: Operation;
  /** "PUT /transfer/fiat-accounts/{id}" in the OpenAPI, absent when it has no such operation. */
  openapi?: string;
}

/** The comparison of one OpenAPI document with our schemas. */
export interface DriftResult {
  /** The OpenAPI document's `openapi` version. */
  openapiVersion: string;
  operations: DriftOperation[];
  findings: DriftFinding[];
  counts: Record<DriftKind, number>;
}

/**
 * Every point where the server could deviate from the document, as one interface with the
 * faithful behaviour as default. A fault (deviations.ts) overrides a few of these members and
 * nothing else, so each defect is one small named change, not ifs scattered through handlers.
 */
import type { Operation } from '../core/operations.ts';
import { codePoints } from '../core/text.ts';

/** The operations of the document (src/core/operations.ts). */
export type { Operation };

/**
 * What a validation error is about: the document's limits and rules are told apart from plain
 * shape and type errors so that a fault can ignore exactly one kind.
 */
export type Concern = 'shape' | 'tax-entry-types' | 'metadata-pairs' | 'metadata-length' | 'tax' | 'date-of-birth' | 'server-policy';

/** One reason a request body is refused. */
export interface Violation {
  concern: Concern;
  instancePath: string;
  message: string;
  /** A refusal of the server's own may carry its own status (422); otherwise the reading's. */
  status?: number;
}

export interface ServerBehaviour {
  /** Whether a request without an Authorization header is refused with 401. */
  requiresAuthorization(operation: Operation): boolean;
  /**
   * For an Authorization header that holds no valid bearer token: true when the server lets the
   * request through as if it were authenticated (the document: never).
   */
  acceptsAuthorization(operation: Operation, header: string): boolean;
  /** Status for a request whose bearer token is not valid. */
  wrongTokenStatus(operation: Operation): number;
  /**
   * The WWW-Authenticate value a 401 carries (RFC 6750 section 3), given the faithful Bearer
   * challenge; undefined: none. `operation` is undefined for a request that names no operation.
   */
  authChallenge(operation: Operation | undefined, challenge: string): string | undefined;
  /** Another method on the operation's path: refused (405 with Allow), handled as the operation, or a 500. */
  otherMethod(operation: Operation, method: string): 'refuse' | 'handle' | 'fail';
  /** An empty request body: answered as the reading says, a 500, or taken as {} without validation. */
  emptyBody(operation: Operation): 'as-read' | 'fail' | 'unchecked';
  /** A request labelled application/json with no body at all (no Content-Length, no Transfer-Encoding): answered as any empty body, or a 500. */
  bodylessJson(operation: Operation): 'as-read' | 'fail';
  /** Status for a body that is not JSON. */
  malformedJsonStatus(operation: Operation): number;
  /** True when the server drops the connection instead of answering this body. */
  dropsConnection(operation: Operation, bodyText: string): boolean;
  /** After this many requests the server dies: every connection is destroyed, no more are taken. */
  diesAfterRequests: number;
  /** True when the server answers this (parsed, well-formed) body with 500 instead of handling it. */
  crashesOn(operation: Operation, body: Record<string, unknown>): boolean;
  /** True when storing this valid body fails (500), like a column that cannot hold it. */
  failsToStore(operation: Operation, body: Record<string, unknown>): boolean;
  /** True when validation errors of this kind are ignored. */
  ignores(operation: Operation, concern: Concern): boolean;
  /** True when the server fails (500) on a body with errors of this kind instead of refusing it. */
  failsOn(operation: Operation, concern: Concern): boolean;
  /** Metadata holds at most this many pairs (section 8). */
  maxMetadataPairs: number;
  /** The length of a metadata key or value as the server counts it (section 8: characters). */
  metadataLength(text: string): number;
  /** Whether tax_details must be sent, given tax_details_not_required as sent and the whole body (4.2). */
  taxDetailsRequired(notRequired: unknown, body: Record<string, unknown>): boolean;
  /** Refusals of the server's own, beyond the document. */
  extraViolations(operation: Operation, body: Record<string, unknown>): Violation[];
  /** What is stored of an update's (validated) metadata. */
  storedMetadata(metadata: Record<string, unknown>): Record<string, unknown>;
  /** Whether the owner names of an update are stored. */
  storesOwnerNames: boolean;
  /** Whether an update's nulls are taken as values and written (the document types the fields: never). */
  writesNulls: boolean;
  /** Whether stored owner names are still there at the next request (false: only the answer to the update shows them). */
  keepsOwnerNames: boolean;
  /** Whether an update's owner names are written into every account, not only the one in the path. */
  ownerNamesOnEveryAccount: boolean;
  /**
   * Whether an update refused for its metadata (a limit of section 8) has written its owner names
   * first (a server that stores the owner record, then validates the metadata). The document: never.
   */
  writesNamesOfRefusedUpdate: boolean;
  /** Status for a well-formed id that matches no fiat account. */
  unknownAccountStatus: number;
  /**
   * How ref_id stays unique per API user: atomically; not at all; check-then-insert with an await
   * between; only the most recent ref_id remembered; one identity (the first) for every create; or
   * atomically, but a repeat answered with the oldest identity whose ref_id differs in letter case only.
   */
  refIdUniqueness: 'atomic' | 'none' | 'racy' | 'last-only' | 'single' | 'repeat-folds-case';
  /**
   * What the server keys a ref_id by: the document's ref_id is its exact text (letter case
   * included); a fault folds its case, or adds the rest of the body.
   */
  refIdKey(refId: string, body: Record<string, unknown>): string;
  /**
   * How the ref_id index remembers: in the document, every ref_id for ever, and a repeat writes
   * nothing. A fault's index forgets a ref_id `forgetsAfterMs` after storing it (a cache), or
   * `upserts`: a repeat writes its body over the identity (keeping its id and created_at).
   */
  refIdIndex: { forgetsAfterMs?: number; upserts?: boolean };
  /** Whose ref_ids are one index: the API user's (section 8), or each access token's (a fault). */
  refIdScope: 'api-user' | 'access-token';
  /** Whether a refused create keeps its ref_id as used (reserved before validating, never released). The document: never. */
  reservesRefusedRefIds: boolean;
  /** The body a repeat of a used ref_id gets (with the created status) instead of the reading's answer; undefined: the reading decides. */
  duplicateResponse(identity: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Content-Type of successful answers. */
  successContentType(operation: Operation): string;
  /** Whether the seeded fiat accounts were made long before the server started (30 days), or as it starts (a sandbox made fresh for CI). */
  seedsAccountsAtStart: boolean;
  /** The last change to an updated FiatAccount (a fresh object) before it is sent. */
  fiatAccountResponse(body: Record<string, unknown>): Record<string, unknown>;
  /** The last change to a created Identity (a fresh object) before it is stored and sent. */
  identityResponse(body: Record<string, unknown>, request: Record<string, unknown>): Record<string, unknown>;
}

/** The server as the document reads. */
export const FAITHFUL: ServerBehaviour = {
  requiresAuthorization: () => true,
  acceptsAuthorization: () => false,
  wrongTokenStatus: () => 401,
  authChallenge: (_operation, challenge) => challenge,
  otherMethod: () => 'refuse',
  emptyBody: () => 'as-read',
  bodylessJson: () => 'as-read',
  malformedJsonStatus: () => 400,
  dropsConnection: () => false,
  diesAfterRequests: Number.POSITIVE_INFINITY,
  crashesOn: () => false,
  failsToStore: () => false,
  ignores: () => false,
  failsOn: () => false,
  maxMetadataPairs: 6,
  metadataLength: codePoints,
  taxDetailsRequired: (notRequired) => notRequired !== true,
  extraViolations: () => [],
  storedMetadata: (metadata) => metadata,
  storesOwnerNames: true,
  writesNulls: false,
  keepsOwnerNames: true,
  ownerNamesOnEveryAccount: false,
  writesNamesOfRefusedUpdate: false,
  unknownAccountStatus: 404,
  refIdUniqueness: 'atomic',
  refIdKey: (refId) => refId,
  refIdIndex: {},
  refIdScope: 'api-user',
  reservesRefusedRefIds: false,
  duplicateResponse: () => undefined,
  successContentType: () => 'application/json',
  seedsAccountsAtStart: false,
  fiatAccountResponse: (body) => body,
  identityResponse: (body) => body,
};

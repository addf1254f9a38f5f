/**
 * What asking the token endpoint for a new access token came to (RFC 6749 4.4), as a scenario
 * that needs requests on two tokens sees it: never the token itself, only its generation.
 */
export type TokenRenewal =
  /** A new access token, the run's `generation`-th: requests from now on carry it. */
  | { kind: 'renewed'; generation: number }
  /** The endpoint handed back the token the run already held: no renewal happened. */
  | { kind: 'same-token'; generation: number }
  /** The endpoint issued nothing (`what`: its answer, no secret); the run goes on with its token. */
  | { kind: 'failed'; what: string };

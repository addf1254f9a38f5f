/**
 * Errors meant for the user (docs/design.md section 4.8): one line that says what to do, never a credential.
 * Each carries a stable `code` and the exit code of the command it ends; `exitCodeOfError` maps
 * them in one place, so no command decides exit codes with instanceof chains.
 */

import { constants } from 'node:os';
import type { RecordedResponse } from './exchange.ts';

/**
 * The CLI's exit codes (docs/design.md section 5.3); an interrupted run exits with exitCodeOfSignal.
 * `leftChanged`: the run left a fiat account changed (or may have); it replaces 0 and 4 only:
 * signals > 3 > 2 > 1 > 5 > 4 > 0.
 */
export const EXIT = { conformant: 0, nonConformant: 1, usage: 2, unreachable: 3, inconclusive: 4, leftChanged: 5 } as const;

/** 128 + the signal's number, as shells report a process ended by it: SIGINT 130, SIGTERM 143, SIGHUP 129. */
export const exitCodeOfSignal = (name: string | undefined): number => 128 + (constants.signals[name as NodeJS.Signals] ?? constants.signals.SIGINT);

export type ErrorCode = 'usage' | 'unknown-accounts' | 'route-not-found' | 'unreachable' | 'authentication';

/** An error the user can act on; anything else is a bug of ours and keeps its stack. */
export abstract class ConformanceError extends Error {
  /** The target's answer that kept the run from judging it, when it answered: the reports quote its words. */
  answer?: RecordedResponse;

  constructor(
    readonly code: ErrorCode,
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A flag, a setting or an input file is wrong. */
export class UsageError extends ConformanceError {
  constructor(message: string) {
    super('usage', EXIT.usage, message);
  }
}

/** The fiat account ids the user gave do not exist on the target (404 to an empty update of each URL tried). */
export class UnknownAccountsError extends ConformanceError {
  constructor(
    readonly ids: string[],
    readonly urls: string[] = [],
    via = 'an empty update',
    hint = '',
  ) {
    super(
      'unknown-accounts',
      EXIT.usage,
      `the target has no fiat account ${ids.join(', ')} (HTTP 404 to ${via}${urls.length ? ` of ${urls.join(', ')}` : ''}): give ids of existing accounts with --fiat-account-id (or CONFORMANCE_FIAT_ACCOUNT_IDS)${hint ? `; ${hint}` : ''}`,
    );
  }
}

/**
 * The base URL does not serve the API: every documented path tried was answered by something else
 * (a 404 everywhere, an HTML page, 405 or 501 without JSON: a wrong host or path prefix, a static
 * file server). Configuration, not non-conformance: exit 2. `tried`: each request and its answer.
 */
export class RouteNotFoundError extends ConformanceError {
  constructor(
    readonly urls: string[],
    hint = "the document's paths begin with /v2 and are appended to it",
  ) {
    super('route-not-found', EXIT.usage, `the base URL does not serve the API: ${urls.join('; ')}: check --base-url; ${hint}`);
  }
}

/** The target or the token endpoint gave no HTTP answer: "cannot reach http://...: ECONNREFUSED". */
export class UnreachableError extends ConformanceError {
  constructor(message: string) {
    super('unreachable', EXIT.unreachable, message);
  }
}

/** The token endpoint or the target refused the credentials, or no usable token came back. */
export class AuthenticationError extends ConformanceError {
  constructor(message: string) {
    super('authentication', EXIT.unreachable, message);
  }
}

/** `error`, carrying the target's answer that caused it (none when no answer came). */
export function withAnswer<E extends ConformanceError>(error: E, answer: RecordedResponse | undefined): E {
  if (answer) error.answer = answer;
  return error;
}

/** The exit code for an error a command ends with, or undefined for a bug (rethrow it). */
export function exitCodeOfError(error: unknown): number | undefined {
  return error instanceof ConformanceError ? error.exitCode : undefined;
}

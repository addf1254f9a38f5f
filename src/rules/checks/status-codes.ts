/**
 * Checks that judge the status code against the case's intent (docs/design.md section 4.3): valid and boundary
 * cases must be accepted, invalid ones must not be, rejections should be 4xx, nothing should be 5xx.
 */
import type { Check, Problem } from '../check.ts';
import { OPERATIONS, sentToUnknownAccount, usesFiatAccount } from '../../core/operations.ts';
import { pass, problem } from '../check.ts';
import { oneLine } from '../../core/text.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import { describeStatus, is2xx, is4xx, is5xx, isOperation, statusOf, notUtf8, statusFinding, unreadableBody, unreadableParams } from './exchange-facts.ts';

/**
 * An answer that says something about the request: not a 429 still standing after the retries
 * (the answers rule reports that; the document sets no rate limit).
 */
const answered = (e: Exchange): boolean => e.response !== undefined && e.error?.kind !== 'rate-limited';

/** Refusals about access or rate (credentials, permissions, a proxy, a 429): never about the body. */
const ACCESS_STATUSES = [401, 403, 407, 429];

/**
 * A refusal that is about access, not about the body (credentials, permissions, a pool account
 * not found): it shows nothing about whether the invalid body would have been rejected.
 */
function refusedAccess(e: Exchange, pool: readonly string[]): boolean {
  const status = statusOf(e) ?? 0;
  if (ACCESS_STATUSES.includes(status)) return true;
  return status === 404 && usesFiatAccount(e.testCase.operation) && pool.includes(e.testCase.fiatAccountId ?? '');
}

/**
 * A refusal of an open case that may be a limit of the target (docs/design.md, "guaranteed,
 * forbidden, open"): a 4xx about the body. Access refusals and a 404 are about something else, and
 * a 5xx is the server failing, not refusing.
 */
export function refusesOpenPoint(e: Exchange): boolean {
  const status = statusOf(e);
  return e.testCase.open !== undefined && answered(e) && is4xx(e) && status !== 404 && !ACCESS_STATUSES.includes(status ?? 0);
}

/**
 * A refusal of a valid case that combines open values (rules/open-points/combinations.ts): each
 * was accepted alone, but a target may refuse them together (a GBR national with an SSN); like an
 * open case's refusal it is the target's limit, never blamed.
 */
export function refusesCombination(e: Exchange): boolean {
  const status = statusOf(e);
  return (
    e.testCase.combined !== undefined && e.testCase.mode === 'valid' && answered(e) && is4xx(e) && status !== 404 && !ACCESS_STATUSES.includes(status ?? 0)
  );
}

/** An update aimed at an account of the pool (the unknown-id cases aim elsewhere). */
function targetsKnownAccount(e: Exchange, ids: readonly string[]): boolean {
  return !usesFiatAccount(e.testCase.operation) || ids.includes(e.testCase.fiatAccountId ?? '');
}

/** The rule under which acceptance of a well-formed case is judged. */
export function acceptanceRule(e: Exchange): RuleId | undefined {
  const c = e.testCase;
  if (c.auth) return undefined;
  if (c.mode === 'boundary') return c.exercises;
  if (c.mode === 'valid') return OPERATIONS[c.operation].validAcceptedRule;
  return undefined;
}

/** A valid or boundary case must get a 2xx. A 5xx is judged here too: the request was valid. */
export function acceptedCheck(rule: RuleId): Check {
  return {
    rule,
    reads: 'status',
    judge(e, context) {
      if (acceptanceRule(e) !== rule || !answered(e)) return null;
      if (!targetsKnownAccount(e, context.fiatAccountIds)) return null;
      if (is2xx(e)) return pass;
      // The target's limit on an open point: recorded in the observed contract, never blamed.
      if (refusesOpenPoint(e) || refusesCombination(e)) return null;
      if (context.mergeMayExceedLimit(e)) return null;
      return problem(`${e.testCase.label}: a valid request was not accepted (${describeStatus(e)})`, statusFinding(e, '2xx'));
    },
  };
}

/**
 * An invalid case must be rejected: not a 2xx, and not a 5xx either, which is the server failing,
 * not refusing the input (docs/design.md section 2). The exact error code is not judged here.
 */
export function rejectedCheck(rule: RuleId): Check {
  return {
    rule,
    reads: 'status',
    judge(e, context) {
      if (e.testCase.violates !== rule || !answered(e) || refusedAccess(e, context.fiatAccountIds)) return null;
      if (is2xx(e)) return problem(`${e.testCase.label}: an invalid request was accepted (${describeStatus(e)})`, statusFinding(e, '4xx'));
      if (is5xx(e))
        return problem(`${e.testCase.label}: the server failed on an invalid request instead of rejecting it (${describeStatus(e)})`, statusFinding(e, '4xx'));
      return pass;
    },
  };
}

/** A rule whose cases must get a 4xx exactly (malformed id, malformed JSON). 5xx is left to no-5xx. */
export function fourXxCheck(rule: RuleId): Check {
  return {
    rule,
    reads: 'status',
    judge(e) {
      if (e.testCase.violates !== rule || !answered(e) || is5xx(e)) return null;
      return is4xx(e) ? pass : problem(`${e.testCase.label}: expected a 4xx, got ${describeStatus(e)}`, statusFinding(e, '4xx'));
    },
  };
}

/** Every rejected invalid case should be a 4xx (convention); 2xx and 5xx belong to other rules. */
export function rejectionIs4xxCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'status',
    judge(e) {
      const refusable = e.testCase.mode === 'invalid' || e.testCase.mode === 'duplicate';
      if (!isOperation(e, operation) || !refusable || e.testCase.auth || !answered(e)) return null;
      if (is2xx(e) || is5xx(e)) return null;
      return is4xx(e) ? pass : problem(`${e.testCase.label}: rejected with ${describeStatus(e)}, not a 4xx`, statusFinding(e, '4xx'));
    },
  };
}

export function no5xxCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'status',
    judge(e) {
      if (!isOperation(e, operation) || !e.response) return null;
      return is5xx(e) ? problem(`${e.testCase.label}: the target answered ${describeStatus(e)}`, statusFinding(e, 'not 5xx')) : pass;
    },
  };
}

/**
 * A dropped connection, a timeout or a 429 that never ends is recorded, and the run goes on. An
 * error body that is not UTF-8 is judged here too: no other rule reads error bodies, and the
 * document shows none (a body that names another charset is left alone).
 */
export function answersCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'status',
    judgesAround: true,
    judge(e) {
      if (!isOperation(e, operation)) return null;
      if (e.error) return problem(`${e.testCase.label}: ${e.error.kind}: ${e.error.message}`, { kind: 'no-answer', params: { error: e.error.kind } });
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(e.response?.headers['content-type'] ?? '')?.[1]?.toLowerCase();
      const utf8Expected = charset === undefined || charset === 'utf-8' || charset === 'utf8';
      if (!is2xx(e) && e.response?.invalidUtf8 && utf8Expected)
        return problem(`${e.testCase.label}: ${notUtf8(e.response.rawBody, `the error body (${describeStatus(e)})`)}`, {
          kind: 'unreadable-body',
          params: { reason: 'not-utf8', status: e.response.status },
        });
      return pass;
    },
  };
}

export function unknownIdCheck(rule: RuleId): Check {
  return {
    rule,
    reads: 'status',
    judge(e, context) {
      const c = e.testCase;
      if (!usesFiatAccount(c.operation) || c.mode !== 'valid' || c.auth || !answered(e)) return null;
      if (!sentToUnknownAccount(c, context.fiatAccountIds)) return null;
      return statusOf(e) === 404 ? pass : problem(`${c.label}: expected 404 for an unknown id, got ${describeStatus(e)}`, statusFinding(e, '404'));
    },
  };
}

export function authCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'status',
    judge(e) {
      if (!isOperation(e, operation) || !e.testCase.auth || !answered(e)) return null;
      return statusOf(e) === 401 ? pass : problem(`${e.testCase.label}: expected 401, got ${describeStatus(e)}`, statusFinding(e, '401'));
    },
  };
}

/**
 * A success is JSON (section 4): labelled application/json, and a body that parses as JSON text
 * the harness can read (RFC 8259 8.1: UTF-8; not too large to keep). An empty body (a 204) is no JSON.
 */
export function contentTypeCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    reads: 'headers',
    judge(e) {
      if (!isOperation(e, operation) || !is2xx(e)) return null;
      const problems: Problem[] = [];
      const unreadable = unreadableBody(e);
      const raw = e.response?.rawBody ?? '';
      const status = statusOf(e) ?? 0;
      if (unreadable) problems.push({ message: unreadable, kind: 'unreadable-body', params: unreadableParams(e) });
      else if (!e.response?.json)
        problems.push({
          message: raw.trim() ? `the body is not JSON: ${oneLine(raw, 120)}` : `the body is empty, not JSON (${describeStatus(e)})`,
          kind: 'unreadable-body',
          params: { reason: raw.trim() ? 'not-json' : 'empty', status },
        });
      const type = e.response?.headers['content-type'] ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type))
        problems.push({
          message: `Content-Type is "${type || '(none)'}", not application/json`,
          kind: 'header',
          params: { field: 'content-type', expected: 'application/json', ...(type ? { received: type } : {}) },
        });
      return problems;
    },
  };
}

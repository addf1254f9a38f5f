/**
 * Checks of HTTP around the two operations (docs/design.md section 2, "HTTP around the
 * operations"): other methods on their paths, empty and missing bodies, and the challenge of a 401.
 * All are conventions: the document names one method per path, says bodies are JSON, and that
 * the service uses OAuth 2 bearer tokens, and no more.
 */
import type { Check } from '../check.ts';
import type { ExpectedStatus, ProblemData } from '../problem-kinds.ts';
import { pass, problem } from '../check.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import { describeStatus, is2xx, is4xx, is5xx, isOperation, statusFinding, statusOf } from '../checks/exchange-facts.ts';

/** A 401 whose WWW-Authenticate names no Bearer challenge: the header as it came, when it came. */
const noBearer = (header: string | undefined): ProblemData => ({
  kind: 'header',
  params: { field: 'www-authenticate', expected: 'Bearer', ...(header !== undefined ? { received: header } : {}) },
});

/** What was sent, as a person reads it: "PATCH with {}", "an empty body". */
const sent = (label: string, method: string) => `${label} (${method})`;

/**
 * A case about HTTP around the operation (its `around` rule): a 5xx is never right; a case that
 * only a refusal answers right (mode invalid: PATCH on the account, an empty create) must get a
 * 4xx; one a 2xx may answer too (mode valid: GET, OPTIONS, an empty update taken as {}) passes
 * with a 2xx or a 4xx. A 429 still standing after the retries judges nothing (the answers rule).
 */
export function aroundCheck(rule: RuleId): Check {
  return {
    rule,
    reads: 'status',
    judge(e) {
      const c = e.testCase;
      if (c.around !== rule || !e.response || e.error?.kind === 'rate-limited') return null;
      const what = sent(c.label, e.request.method);
      const expected: ExpectedStatus = c.mode === 'valid' ? '2xx or 4xx' : '4xx';
      if (is5xx(e)) return problem(`${what}: the server failed (${describeStatus(e)}) instead of answering`, statusFinding(e, expected));
      if (is4xx(e)) return pass;
      if (is2xx(e) && c.mode === 'valid') return pass;
      if (is2xx(e)) return problem(`${what}: accepted (${describeStatus(e)}), expected a refusal with a 4xx`, statusFinding(e, expected));
      return problem(`${what}: answered ${describeStatus(e)}, expected ${c.mode === 'valid' ? 'a 2xx or a 4xx' : 'a 4xx'}`, statusFinding(e, expected));
    },
  };
}

/** A token of RFC 9110 section 5.6.2 (an auth-scheme is one). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/**
 * The auth-schemes a WWW-Authenticate value names (RFC 9110 section 11.6.1: one or more
 * challenges, comma-separated, each a scheme then a token68 or auth-params, which hold commas
 * too). An element of the list starts a challenge when it begins with a token that no "=" follows.
 */
export function challengeSchemes(value: string): string[] {
  const schemes: string[] = [];
  for (const element of splitOutsideQuotes(value)) {
    const item = element.trim();
    const token = TOKEN.exec(item)?.[0];
    if (!token) continue;
    const rest = item.slice(token.length);
    // "realm=x" and "realm = x" are auth-params; "Bearer", "Bearer realm=x", "Basic abc==" start challenges.
    if ((rest === '' || /^\s/.test(rest)) && !/^\s*=/.test(rest)) schemes.push(token);
  }
  return schemes;
}

/** The elements of a comma-separated header list; commas inside quoted strings do not split. */
function splitOutsideQuotes(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quoted && ch === '\\' && i + 1 < value.length) {
      current += ch + value[++i];
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/**
 * A 401 to a request without valid credentials names the Bearer scheme in WWW-Authenticate
 * (RFC 9110 section 11.6.1 makes the header mandatory on a 401; RFC 6750 section 3 names the
 * scheme of bearer tokens). The scheme's letter case does not matter; other challenges may sit
 * beside it. Any other answer is the 401 rule's business.
 */
export function authChallengeCheck(rule: RuleId, operation: Operation): Check {
  return {
    rule,
    // The answer to a case without credentials, not a success's headers: no repeated create feeds it.
    reads: 'status',
    judge(e) {
      if (!isOperation(e, operation) || !e.testCase.auth || statusOf(e) !== 401) return null;
      const header = e.response?.headers['www-authenticate'];
      if (header === undefined || header.trim() === '') return problem(`${e.testCase.label}: the 401 carries no WWW-Authenticate header`, noBearer(header));
      const schemes = challengeSchemes(header);
      if (schemes.some((s) => s.toLowerCase() === 'bearer')) return pass;
      return problem(
        `${e.testCase.label}: the 401's WWW-Authenticate names ${schemes.length ? schemes.join(', ') : 'no scheme'}, not Bearer: ${JSON.stringify(header)}`,
        noBearer(header),
      );
    },
  };
}

/**
 * Cases about HTTP around the two operations (docs/design.md section 2, "HTTP around the
 * operations"): other methods on their paths, and an empty or a missing body. Each case names its
 * rule in `around`, so only that rule judges it; none has a twin (there is no one defect to remove).
 */
import type { Operation, RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { CaseFamily } from '../cases/family.ts';

/**
 * Another method on an operation's path. `refused`: only a 4xx is right. `readOnly`: the document
 * names get and list operations beside these ("other operations of the service"), so a GET (or
 * an OPTIONS, often answered for CORS) may rightly get a 2xx: only a 5xx is wrong. `body` goes
 * with the method (a harmless one: {} or a valid create), none when undefined.
 */
export interface OtherMethod {
  method: string;
  expect: 'refused' | 'readOnly';
  body?: unknown;
}

function aroundCase(operation: Operation, rule: RuleId, label: string, mustRefuse: boolean, extra: Partial<TestCase>): TestCase {
  return {
    operation,
    mode: mustRefuse ? 'invalid' : 'valid',
    label,
    ...(mustRefuse ? { violates: rule } : {}),
    around: rule,
    ...extra,
  };
}

const describeBody = (body: unknown) => (body === undefined ? 'no body' : JSON.stringify(body) === '{}' ? 'body {}' : 'a valid create body');

/** One case per method, each on the operation's path (an update's on an account of the pool). */
export function otherMethodsFamily(operation: Operation, rule: RuleId, methods: readonly OtherMethod[]): CaseFamily {
  return {
    rule,
    examples: methods.map(({ method, expect, body }) =>
      aroundCase(operation, rule, `${method} with ${describeBody(body)}`, expect === 'refused', { method, ...(body !== undefined ? { body } : {}) }),
    ),
  };
}

/**
 * The operation's method without a body, three ways: an empty body labelled application/json
 * ("Content-Length: 0"); no body and no Content-Type at all; and no body at all labelled
 * application/json, with no Content-Length either, byte for byte what curl -X PUT -H
 * 'Content-Type: application/json' sends (a framework may parse only a framed body and leave the
 * body undefined). `mustRefuse`: taken as {}, the body breaks a rule (the create's tax rule), so
 * only a 4xx is right; otherwise {} is a valid request and a 2xx is fine.
 */
export function emptyBodyFamily(operation: Operation, rule: RuleId, mustRefuse: boolean): CaseFamily {
  return {
    rule,
    examples: [
      aroundCase(operation, rule, 'an empty body with Content-Type application/json', mustRefuse, { rawBody: '' }),
      aroundCase(operation, rule, 'no body and no Content-Type', mustRefuse, {}),
      aroundCase(operation, rule, 'no body at all with Content-Type application/json (no Content-Length, as curl sends it)', mustRefuse, {
        bodylessJson: true,
      }),
    ],
  };
}

/**
 * The API operations of the document (section 4), as data: everything that differs between
 * operations outside their payloads, checks and generators is read from here (transport, runner,
 * replay, the status-code checks, undocumented fields, reports, suites). Adding an operation is
 * one entry here plus its schemas, case families and checks.
 */
import type { TestCase } from './case.ts';
import type { RuleId } from './catalogue.ts';

export type Operation = 'updateFiatAccount' | 'createIdentity';

export interface OperationSpec {
  id: Operation;
  method: 'PUT' | 'POST';
  /** Appended to the base URL; `{name}` is a path parameter. */
  pathTemplate: string;
  /** Each path parameter and the field of a case that holds its value. */
  pathParameters: Record<string, 'fiatAccountId'>;
  /** Schema names in schemas/ (file name without .schema.json). */
  requestSchema: string;
  responseSchema: string;
  /** The rule ids of the operation start with this. */
  rulePrefix: string;
  /** The rule under which a valid request must be accepted. */
  validAcceptedRule: RuleId;
  /** The runner stamps a fresh ref_id into each object body (the run tag keeps runs apart). */
  stampsRefId: boolean;
}

export const OPERATIONS: Readonly<Record<Operation, OperationSpec>> = {
  updateFiatAccount: {
    id: 'updateFiatAccount',
    method: 'PUT',
    pathTemplate: '/v2/transfer/fiat-accounts/{id}',
    pathParameters: { id: 'fiatAccountId' },
    requestSchema: 'update-fiat-account-request',
    responseSchema: 'fiat-account',
    rulePrefix: 'fa.',
    validAcceptedRule: 'fa.valid-accepted',
    stampsRefId: false,
  },
  createIdentity: {
    id: 'createIdentity',
    method: 'POST',
    pathTemplate: '/v2/identity/identities',
    pathParameters: {},
    requestSchema: 'create-identity-request',
    responseSchema: 'identity',
    rulePrefix: 'id.',
    validAcceptedRule: 'id.valid-accepted',
    stampsRefId: true,
  },
};

export const OPERATION_IDS = Object.keys(OPERATIONS) as Operation[];

/** `PUT /v2/transfer/fiat-accounts/{id}`: how the document names an operation. */
export const describeOperation = (op: Operation): string => `${OPERATIONS[op].method} ${OPERATIONS[op].pathTemplate}`;

/** True when the operation's path names a fiat account of the pool. */
export const usesFiatAccount = (op: Operation): boolean => Object.values(OPERATIONS[op].pathParameters).includes('fiatAccountId');

/**
 * A case sent on purpose to a fiat account the run was not given (the unknown-id cases, which
 * expect 404): no valid request refused, and judged by the unknown-id rules alone.
 */
export const sentToUnknownAccount = (c: TestCase, accounts: readonly string[]): boolean =>
  usesFiatAccount(c.operation) && c.fiatAccountId !== undefined && !accounts.includes(c.fiatAccountId);

/** encodeURIComponent throws on a lone surrogate: it goes out as U+FFFD, as any UTF-8 client sends it. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** The URL of a case: base URL plus the operation's path with its parameters filled in. */
export function operationUrl(baseUrl: string, testCase: TestCase): string {
  const { pathTemplate, pathParameters } = OPERATIONS[testCase.operation];
  const path = pathTemplate.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(wellFormed(testCase[pathParameters[name]] ?? '')));
  return `${baseUrl}${path}`;
}

/**
 * The operation a recorded URL path belongs to, with its path parameters decoded (for replay).
 * Not anchored at the start: a base URL may carry a path prefix before /v2.
 */
export function matchOperationPath(pathname: string, op: Operation): Partial<Pick<TestCase, 'fiatAccountId'>> | undefined {
  const { pathTemplate, pathParameters } = OPERATIONS[op];
  const names: string[] = [];
  const pattern = pathTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`${pattern}$`).exec(pathname);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [pathParameters[name], decodeURIComponent(match[i + 1])]));
}

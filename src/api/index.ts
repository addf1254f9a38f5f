/**
 * fiat-identity-conformance as a library, for QA tests of one's own (README: "Library API").
 *
 * - run the suite or some rules against a target: `runConformance`, and the report it returns;
 * - the errors a run throws and the exit codes;
 * - the schemas derived from the document and their validator: `validateSchema`, `schemaNames`;
 *   the TypeScript types of the payloads (`UpdateFiatAccountRequest`, `FiatAccount`, ...);
 * - the embedded reference server, faithful or with a fault: `startReferenceServer`;
 * - the transport (auth, rate limit, retries, timeouts): `createClient`, or `connectTarget`;
 * - the fast-check arbitraries of each operation and rule, and the checks: `arbitraries`,
 *   `casesForRule`, `fc`, `checkExchange`.
 *
 * The other entries: `fiat-identity-conformance/vitest` (the vitest helpers), `/report` (writing
 * and merging reports), `/evidence` (bundles, their verification, HAR replay and re-judge), `/cli`
 * (the command line as a function), and the schemas as files in `/schemas/*`.
 *
 * Each name exported here carries its stability in its doc comment: `@public` is stable (a change
 * is a major version), `@beta` may change in a minor version. What is not exported from an entry
 * is internal. docs/api-surface.md lists every entry's names (`npm run api-surface -- --write`).
 */
import { registry, type SchemaError } from '../schema/registry.ts';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../server/server.ts';

// Running the suite.
export {
  /** @public */
  runConformance,
  /** @public */
  type ConformanceOptions,
  /** @public */
  type ConformanceResult,
} from './run-conformance.ts';
// The events runConformance's listeners hear while the run goes.
export type {
  /** @beta */
  ReportEvent,
  /** @beta */
  ReportListener,
} from '../report/model/report-events.ts';

// The report a run returns.
export {
  /** @public */
  REPORT_VERSION,
  /** @public */
  type ConformanceReport,
  /** @public */
  type ReportRule,
  /** @public */
  type ReportFailure,
  /** @public */
  type RuleStatus,
  /** @public */
  type Verdict,
} from '../report/model/model.ts';

/**
 * The errors a run throws (each with a stable `code` and the `exitCode` of `conformance run`), and
 * the exit codes: `instanceof UsageError`, or `error.code === 'unreachable'`.
 */
export {
  /** @public */
  ConformanceError,
  /** @public */
  UsageError,
  /** @public */
  UnknownAccountsError,
  /** @public */
  RouteNotFoundError,
  /** @public */
  UnreachableError,
  /** @public */
  AuthenticationError,
  /** @public */
  EXIT,
  /** @public */
  exitCodeOfError,
  /** @public */
  type ErrorCode,
} from '../core/errors.ts';

// The rules, the operations, and what a case and an exchange are.
export {
  /** @public */
  RULES,
  /** @public */
  type RuleDefinition,
  /** @public */
  type Basis,
} from '../core/catalogue.ts';
export {
  /** @public */
  OPERATIONS,
  /** @public */
  type Operation,
} from '../core/operations.ts';
export type {
  /** @public */
  TestCase,
  /** @public */
  Mode,
} from '../core/case.ts';
export type {
  /** @public */
  Exchange,
  /** @public */
  RecordedRequest,
  /** @public */
  RecordedResponse,
  /** @public */
  TransportError,
} from '../core/exchange.ts';

// Arbitraries and checks for properties of one's own.
export {
  /** @public */
  arbitraries,
  /** @public */
  fc,
  /** @beta */
  casesForRule,
  /** @beta */
  rulesWithCases,
  /** @beta */
  type RuleCases,
} from './arbitraries.ts';
export {
  /** @public */
  checkExchange,
  /** @public */
  failedChecks,
  /** @public */
  type CheckOptions,
  /** @beta */
  type RuleJudgement,
} from './checks.ts';
export type {
  /** @beta */
  Problem,
} from '../rules/check.ts';
export type {
  /** @beta */
  ProblemKind,
  /** @beta */
  ProblemParams,
} from '../rules/problem-kinds.ts';

// The transport.
export {
  /** @public */
  createClient,
  /** @public */
  validRequest,
  /** @public */
  type Client,
  /** @public */
  type ClientOptions,
} from './client.ts';
export {
  /** @public */
  connectTarget,
  /** @public */
  type ConnectedTarget,
} from './target.ts';

// The embedded reference server.
export {
  /** @public */
  FAULTS,
  /** @public */
  type FaultName,
  /** @public */
  type FaultDefinition,
} from '../server/faults.ts';
export type {
  /** @beta */
  Reading,
} from '../server/reading.ts';
export type {
  /** @public */
  ReferenceServer,
  /** @public */
  ReferenceServerOptions,
};

// The schemas, their validation and the payload types.
export type {
  /** @public */
  SchemaError,
};
// The request and response bodies as TypeScript types, generated from schemas/ (npm run generate-types).
export type {
  /** @public */
  UpdateFiatAccountRequest,
  /** @public */
  FiatAccount,
  /** @public */
  FiatAccountStatus,
  /** @public */
  FiatAccountOwner,
  /** @public */
  FiatAccountPersonDetails,
  /** @public */
  FiatNetworkInstructions,
  /** @public */
  Wire,
  /** @public */
  Address,
  /** @public */
  RoutingDetails,
  /** @public */
  FiatAccountMetadata,
  /** @public */
  FiatAccountResponseMetadata,
  /** @public */
  CreateIdentityRequest,
  /** @public */
  IdentityPersonDetailsRequest,
  /** @public */
  TaxDetail,
  /** @public */
  Identity,
  /** @public */
  IdentityStatus,
  /** @public */
  IdentityPersonDetails,
  /** @public */
  OperationBodies,
} from '../schema/api-types.ts';
export {
  /** @beta */
  buildOpenApiDocument,
  /** @beta */
  type OpenApiOptions,
} from '../schema/openapi.ts';
export {
  /** @public */
  TOOL_NAME,
  /** @public */
  TOOL_VERSION,
} from '../core/version.ts';

/**
 * The names of the schemas derived from the document, e.g. `fiat-account`, `create-identity-request`.
 * @public
 */
export function schemaNames(): string[] {
  return registry().names();
}

/**
 * A schema document (JSON Schema 2020-12) by name.
 * @public
 */
export function schemaOf(name: string): Record<string, unknown> {
  return registry().schema(name);
}

/**
 * Validates a payload against a schema of the document (ajv, every error); an empty array means
 * valid. Each error names the document section and, for responses, the rule it belongs to.
 * @public
 */
export function validateSchema(name: string, payload: unknown): SchemaError[] {
  return registry().validate(name, payload);
}

/**
 * Starts the embedded reference server (the document implemented, or with one `fault`) on a free
 * loopback port. It hands out its own credentials (`tokenUrl`, `clientId`, `clientSecret`) and
 * fiat account ids; `close()` stops it.
 * @public
 */
export function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  return createReferenceServer(options);
}

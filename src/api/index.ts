/**
 * fiat-identity-conformance as a library, for QA tests of one's own (README: "Library API").
 *
 * - run the suite or some rules against a target: `runConformance`;
 * - the fast-check arbitraries of each operation and rule: `arbitraries`, `casesForRule`, `fc`;
 * - the checks: `checkExchange`;
 * - the schemas derived from the document and their validator: `validateSchema`, `schemaNames`;
 *   their TypeScript types (`UpdateFiatAccountRequest`, `FiatAccount`, ...) and OpenAPI document;
 * - the transport (auth, rate limit, retries, timeouts): `createClient`, or `connectTarget` for the
 *   target of a run's options (the embedded server when none is given);
 * - the embedded reference server, faithful or with a fault: `startReferenceServer`.
 *
 * The vitest helpers (a suite per operation, readable assertions) are in
 * `fiat-identity-conformance/vitest`; the schemas as files in `fiat-identity-conformance/schemas/*`.
 */
import { registry, type SchemaError } from '../schema/registry.ts';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../server/server.ts';

export { runConformance, resolveOptions, type ConformanceOptions, type ConformanceResult } from './run-conformance.ts';
export { arbitraries, casesForRule, rulesWithCases, fc, type RuleCases } from './arbitraries.ts';
export { checkExchange, failedChecks, type CheckOptions, type RuleJudgement } from './checks.ts';
export { createClient, validRequest, type Client, type ClientOptions } from './client.ts';
export { connectTarget, type ConnectedTarget } from './target.ts';

export { RULES, type RuleDefinition, type Basis } from '../core/catalogue.ts';
export { OPERATIONS, type Operation } from '../core/operations.ts';
export type { TestCase, Mode } from '../core/case.ts';
export type { Exchange, RecordedRequest, RecordedResponse, TransportError } from '../core/exchange.ts';
export type { Problem } from '../rules/check.ts';
export type { ProblemKind, ProblemParams } from '../rules/problem-kinds.ts';
/**
 * The errors a run throws (each with a stable `code` and the `exitCode` of `conformance run`), and
 * the exit codes: `instanceof UsageError`, or `error.code === 'unreachable'`.
 */
export {
  ConformanceError,
  UsageError,
  UnknownAccountsError,
  RouteNotFoundError,
  UnreachableError,
  AuthenticationError,
  EXIT,
  exitCodeOfError,
  type ErrorCode,
} from '../core/errors.ts';
export {
  exitCodeOf,
  REPORT_VERSION,
  type ConformanceReport,
  type ReportRule,
  type ReportFailure,
  type RuleStatus,
  type Verdict,
} from '../report/model/model.ts';
export type { ReportEvent, ReportListener } from '../report/model/report-events.ts';
export { mergeShardReports, type ShardInput } from '../report/compare/merge-reports.ts';
export { writeReports, type WriteReportsOptions, type WriteReportsResult } from '../report/files/write-reports.ts';
export { bundleReportFolder, writeBundleFile, type Bundle, type BundleOptions } from '../report/files/bundle/write-bundle.ts';
export { verifyBundle, type VerifyResult } from '../report/files/bundle/verify-bundle.ts';
export type { Manifest, ManifestFile } from '../report/files/bundle/manifest.ts';
export { readPrivateKey, readPublicKey } from '../report/files/bundle/signature.ts';
export { replayHar, replayDisagreements, type HarReplay, type ReplayedRule, type ReplayStatus } from '../run/har-replay.ts';
export { rejudgeHar, rejudgeDisagreement, type HarRejudge } from '../run/har-rejudge.ts';
export { verifyEvidence, type EvidenceVerifyResult, type RejudgeSummary } from '../run/verify-evidence.ts';
export type { Reading } from '../server/reading.ts';
export { FAULTS, type FaultName, type FaultDefinition } from '../server/faults.ts';
export type { SchemaError, ReferenceServer, ReferenceServerOptions };
export { TOOL_NAME, TOOL_VERSION } from '../core/version.ts';
/** The request and response bodies as TypeScript types, generated from schemas/ (npm run generate-types). */
export type * from '../schema/api-types.ts';
export { buildOpenApiDocument, type OpenApiOptions } from '../schema/openapi.ts';

/** The names of the schemas derived from the document, e.g. `fiat-account`, `create-identity-request`. */
export function schemaNames(): string[] {
  return registry().names();
}

/** A schema document (JSON Schema 2020-12) by name. */
export function schemaOf(name: string): Record<string, unknown> {
  return registry().schema(name);
}

/**
 * Validates a payload against a schema of the document (ajv, every error); an empty array means
 * valid. Each error names the document section and, for responses, the rule it belongs to.
 */
export function validateSchema(name: string, payload: unknown): SchemaError[] {
  return registry().validate(name, payload);
}

/**
 * Starts the embedded reference server (the document implemented, or with one `fault`) on a free
 * loopback port. It hands out its own credentials (`tokenUrl`, `clientId`, `clientSecret`) and
 * fiat account ids; `close()` stops it.
 */
export function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  return createReferenceServer(options);
}

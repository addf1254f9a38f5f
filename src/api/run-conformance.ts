/**
 * The library's run: the suite, or some of its rules, against a target, from typed options. The
 * options are the flags of `conformance run` under their camelCase names (the `option` of each
 * entry of the flag table, src/run/run-flags.ts) and resolve through the same resolver as the
 * flags (resolveSettings), with no detour through flag text: a bad option is refused under its
 * own name (`concurrency`, not `--concurrency`). The run is composed by the same orchestrator
 * (orchestrateRun), so a library run and a CLI run with the same settings send the same cases and
 * give the same verdict.
 */
import { randomInt } from 'node:crypto';
import { resolveSettings, type RunConfig } from '../run/run-config.ts';
import { settingsOfOptions, type Env } from '../run/given-settings.ts';
import { orchestrateRun } from '../run/orchestrate-run.ts';
import type { Profile } from '../engine/profiles.ts';
import type { Reading } from '../server/reading.ts';
import type { FaultName } from '../server/faults.ts';
import type { ConformanceReport, ReportRule } from '../report/model/model.ts';
import type { ReportListener } from '../report/model/report-events.ts';

export interface ConformanceOptions {
  /** The target; none starts the embedded reference server on a free loopback port. */
  baseUrl?: string;
  /** A static bearer token ... */
  token?: string;
  /** ... or OAuth 2 client credentials. */
  clientCredentials?: { tokenUrl: string; clientId: string; clientSecret: string; scope?: string };
  /** Existing fiat account ids of the target (required for a remote target). */
  fiatAccountIds?: string[];
  /** Only the rules whose id starts with one of these, e.g. `['fa.metadata']`. */
  rules?: string[];
  /** The same seed regenerates the same cases; random when unset (the report says which). */
  seed?: number;
  /** quick, standard or deep; the default is the CLI's (standard; for a remote target the deepest within 1,200 requests). */
  profile?: Profile;
  /** Random cases per rule, overriding the profile. */
  runs?: number;
  /** A failed convention rule also makes the run non-conformant. */
  strict?: boolean;
  /** End the run at the first failure that makes it non-conformant. */
  failFast?: boolean;
  /** Leave the fiat accounts as the run last wrote them (by default they are read first and put back at the end). */
  noRestore?: boolean;
  /** Read fiat accounts with an empty update (PUT {}) when the target answers no GET of them. */
  readWithEmptyUpdate?: boolean;
  /** Seconds each request of the restore waits for a target that is away (default 60). */
  restorePatience?: number;
  /** Also repeat the run's first ref_ids this long after their creation, waiting at the end if need be: '30s', '5m', or seconds (default off). */
  lifetime?: string | number;
  /** A file kept between runs with the identities earlier runs created for this API user on this target (needs baseUrl). */
  state?: string;
  /** `i/n`: only the i-th of n shares of the cases (needs `seed`); `mergeShardReports` of the n reports gives the verdict. */
  shard?: string;
  /**
   * Write every report format (conformance.json, junit.xml, report.html, summary.md, exchanges.har)
   * here; CONFORMANCE_REPORT_DIR in `env` does the same. No reports are written without either.
   */
  reportDir?: string;
  /** Requests per second (0 = unlimited; default unlimited on loopback, 10 for remote targets). */
  rateLimit?: number;
  /** Requests in flight at most (default 8). */
  concurrency?: number;
  /** Per-request timeout in ms (default 10000). */
  timeoutMs?: number;
  /** Retries of a 429 answer (default 3). */
  maxRetries?: number;
  /** A hard cap on the requests sent to the target: the plan shrinks to fit (docs/design.md section 5.1). */
  maxRequests?: number;
  /** Embedded server only: a defect to inject (see `FAULTS`). */
  fault?: FaultName;
  /** Embedded server only: where the document allows several behaviours, the one it shows. */
  reading?: Partial<Reading>;
  /** Also write the evidence bundle of the reports to this file (docs/design.md 5.10). */
  bundle?: string;
  /** With `bundle`: the PEM Ed25519 private key file that signs the bundle's manifest. */
  signKey?: string;
  /** With `bundle`: replace the personal values in every file of the bundle. */
  redactPersonal?: boolean;
  /**
   * Environment variables (CONFORMANCE_BASE_URL, CONFORMANCE_TOKEN, ...) that fill what the options
   * leave unset, as `conformance run` reads them. None by default: pass `process.env` to opt in.
   */
  env?: Env;
  /** Aborting it interrupts the run, as SIGINT does `conformance run` (runConformance says what comes back). */
  signal?: AbortSignal;
}

export interface ConformanceResult {
  report: ConformanceReport;
  /** The exit code `conformance run` gives this report: 0 conformant, 1 non-conformant, 3 target lost, 4 inconclusive. */
  exitCode: number;
  /** The files written into `reportDir`, when one was given. */
  reportFiles: string[];
  /** A rule's result, by its exact id. */
  rule(id: string): ReportRule | undefined;
}

/**
 * Resolves options as `conformance run` resolves its flags: the same defaults and the same
 * checks. Throws a UsageError (one line that says what to do, naming the option) for a bad setting.
 * What only the command line has (listing rules, its output) is no option: ignored, even untyped.
 */
export function resolveOptions(options: ConformanceOptions = {}): RunConfig {
  return resolveSettings(settingsOfOptions(options, options.env), () => randomInt(1, 2 ** 31 - 1));
}

/**
 * Runs the conformance suite (or the rules of `options.rules`) against a target and returns the
 * report; with `reportDir`, writes every report format there too. `listeners` hear the run's
 * report events as they come. The run is composed as `conformance run` composes it
 * (src/run/orchestrate-run.ts), with the same exit code.
 *
 * Throws what stops a run before it judges anything: a UsageError for a bad setting,
 * UnreachableError, AuthenticationError, UnknownAccountsError, RouteNotFoundError (each a
 * ConformanceError with `code` and `exitCode`, exported by the package); with `reportDir`, the
 * reports of such a run (every rule skipped, verdict error, the reason) are written first. With
 * `reportDir`, a report that could not be written is an Error naming each writer and why, thrown
 * once the run is over: a folder that cannot take them all is no quiet gap (`conformance run`
 * says so on stderr, and exits 2 for a conformant run).
 *
 * `signal` (an AbortSignal): aborting it interrupts the run, as SIGINT does `conformance run`:
 * sending stops, requests in flight get 2 s, and the result's report (and the files, with
 * `reportDir`) has verdict `interrupted`, `stopped.kind` "interrupted", exit code 130 (or
 * 128 + the number of the signal its reason names, e.g. `controller.abort('SIGTERM')`: 143).
 *
 * @example
 * const { report, exitCode } = await runConformance({ rules: ['fa.metadata'], profile: 'quick' });
 */
export async function runConformance(options: ConformanceOptions = {}, listeners: ReportListener[] = []): Promise<ConformanceResult> {
  const config = resolveOptions(options);
  const writesReports = options.reportDir !== undefined || Boolean(options.env?.CONFORMANCE_REPORT_DIR?.trim());
  const outcome = await orchestrateRun(config, {
    reports: writesReports,
    ...(options.signal ? { signal: options.signal } : {}),
    hooks: { listeners: () => ({ before: listeners }) },
  });
  if (outcome.unwritten.length) {
    throw new Error(`the reports could not all be written to ${config.reportDir}: ${outcome.unwritten.map((e) => `${e.writer}: ${e.message}`).join('; ')}`);
  }
  if (outcome.error) throw outcome.error;
  const { report, exitCode } = outcome;
  return { report, exitCode, reportFiles: outcome.written, rule: (id) => report.rules.find((r) => r.id === id) };
}

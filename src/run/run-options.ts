/**
 * The settings of a run as its callers give them, before they are checked: the library's
 * `runConformance` options (src/api/run-conformance.ts narrows this type) and what
 * `conformance run` parses its flags into (runOptionsOfArgv). Both resolve to a RunConfig through
 * one function, resolveRunOptions (run-config.ts), with the environment twins (CONFORMANCE_*) of
 * `env` filling what the options leave unset.
 */
import type { Reading } from '../server/reading.ts';

/** Environment variables, as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/**
 * A whole number, or the text a flag gave for one: text is checked as the flag is (`--seed ''` is
 * refused, not read as 0), so a command line and the library hear the same words.
 */
export type WholeNumberSetting = number | string;

/** Each setting under the camelCase name of its flag of `conformance run`. */
export interface RunOptions {
  /** --base-url; none starts the embedded reference server. */
  baseUrl?: string;
  /** --token */
  token?: string;
  /** --auth-url, --client-id, --client-secret, --scope (each may come from the environment). */
  clientCredentials?: { tokenUrl?: string; clientId?: string; clientSecret?: string; scope?: string };
  /** --fiat-account-id, each entry may hold several, comma-separated. */
  fiatAccountIds?: readonly string[];
  /** --rule, each entry may hold several, comma-separated. */
  rules?: readonly string[];
  seed?: WholeNumberSetting;
  profile?: string;
  runs?: WholeNumberSetting;
  strict?: boolean;
  failFast?: boolean;
  /** --no-restore: leave the fiat accounts as the run last wrote them. */
  noRestore?: boolean;
  /** --read-with-empty-update: read fiat accounts with PUT {} when the target answers no GET of them. */
  readWithEmptyUpdate?: boolean;
  /** --restore-patience: seconds a restore request waits for a target that is away. */
  restorePatience?: WholeNumberSetting;
  /** --shard i/n */
  shard?: string;
  reportDir?: string;
  /** --rate-limit */
  rateLimit?: WholeNumberSetting;
  concurrency?: WholeNumberSetting;
  /** --timeout */
  timeoutMs?: WholeNumberSetting;
  maxRetries?: WholeNumberSetting;
  /** --max-requests */
  maxRequests?: WholeNumberSetting;
  fault?: string;
  /** --reading: key=value pairs as the flag takes them, or the reading itself. */
  reading?: Partial<Reading> | readonly string[];
  /** --bundle FILE: also write the evidence bundle of the reports (docs/design.md 5.10). */
  bundle?: string;
  /** --sign-key: the PEM Ed25519 private key file that signs the bundle's manifest. */
  signKey?: string;
  /** --redact-personal: replace the personal values in every file of the bundle. */
  redactPersonal?: boolean;
  /** What fills the settings left unset: CONFORMANCE_BASE_URL ... None when absent. */
  env?: Env;
  /** --list-rules, --quiet, --json: the command line's alone (the library prints nothing). */
  listRules?: boolean;
  quiet?: boolean;
  json?: boolean;
}

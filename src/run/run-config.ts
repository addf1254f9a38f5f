/**
 * A run's settings, resolved once: the command line's flags or the library's options over their
 * environment twins (`.env` through dotenv) over defaults (docs/design.md section 4.6), into the
 * one shape every run is composed from (RunConfig). Nothing else reads the environment. Errors are
 * UsageErrors: one line that says what to do, naming the setting as the caller wrote it.
 */
import { UsageError } from '../core/errors.ts';
import { RULES } from '../core/catalogue.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { isLoopback } from '../core/url.ts';
import { parseDuration } from '../core/duration.ts';
import { parseReading, type Reading } from '../server/reading.ts';
import { PROFILES, defaultProfile, type Profile } from '../engine/profiles.ts';
import { parseShard, type Shard } from '../engine/shard.ts';
import { checkBudget } from '../engine/request-budget.ts';
import type { EngineOptions } from '../engine/run-settings.ts';
import { MAX_TIMER_MS } from './whole-number-flag.ts';
import { poolSize, reservedRequests } from './request-reserve.ts';
import { shardAccountNeeds, shardAccounts } from './shard-accounts.ts';
import { REMOTE_RATE_LIMIT } from './run-flags.ts';
import {
  callerName,
  listOf,
  nameOf,
  settingsOfArgv,
  switchOf,
  textOf,
  wholeNumberOf,
  type Env,
  type GivenSettings,
  type SettingKey,
} from './given-settings.ts';

export { REMOTE_RATE_LIMIT, RUN_OPTIONS, runHelp } from './run-flags.ts';

/**
 * A run's settings, resolved: the one shape from the command line and the library to the engine.
 * What the engine and its plan read (seed, runs, rule filter, shard, restore ...) is declared once,
 * in EngineOptions, and handed on as it is (prepare-run.ts); the rest is the transport's, the
 * target's and the reports'.
 */
export interface RunConfig extends EngineOptions {
  /** Undefined: start the embedded server. */
  baseUrl?: string;
  auth: AuthConfig;
  fiatAccountIds: string[];
  /** A profile name, or `custom` when the runs were chosen directly (self-test, fault matrix). */
  profile: Profile | 'custom';
  reportDir: string;
  strict: boolean;
  /** End the run at the first failure that makes it non-conformant (the report is written). */
  failFast: boolean;
  timeoutMs: number;
  rateLimitPerSecond: number | null;
  concurrency: number;
  maxRetries: number;
  /** --max-requests: no run sends more (the plan shrinks to fit, the transport refuses the rest). */
  maxRequests?: number;
  ruleFilter: string[];
  /** With --shard against a remote target: the distinct ids given to every shard (`fiatAccountIds` is this shard's own share of them). */
  fiatAccountsGiven?: number;
  /** --list-rules: print the rules (honouring the filter) and send nothing. */
  listRules?: boolean;
  /** --quiet: only errors, the reports line and the verdict line. */
  quiet?: boolean;
  /** --json: one JSON result on stdout; the human lines go to stderr. */
  json?: boolean;
  /** Embedded server only: a fault to inject and a reading of the document. */
  fault?: string;
  reading: Partial<Reading>;
  /** Embedded server only: its strict variant, the open points restricted (set by self-test and the fault matrix). */
  strictServer?: boolean;
  /** --state FILE: identities of earlier runs of this API user on this target, read before the run and written after it (identity-state.ts). */
  stateFile?: string;
  /** --bundle FILE: the evidence bundle written after the reports, signed with --sign-key, personal values replaced under --redact-personal. */
  bundle?: BundleSettings;
}

/** Where the evidence bundle goes and how it is made (docs/design.md 5.10). */
export interface BundleSettings {
  file: string;
  /** The command line the run was started with, secrets replaced (command-line.ts); absent from the library: the manifest then records the re-run command. */
  commandLine?: string;
  /** A PEM Ed25519 private key file; read (and checked) before the run sends anything. */
  signKeyFile?: string;
  redactPersonal: boolean;
}

/**
 * A config with every setting's default for what is not given: the one place defaults live.
 * `resolveRunConfig` starts from it, and so do the in-process runs (self-test, fault matrix,
 * benchmark) and replay. Fresh lists each call, so no caller shares another's.
 */
export function runConfig(overrides: Partial<RunConfig> & Pick<RunConfig, 'seed'>): RunConfig {
  return {
    auth: { kind: 'none' },
    fiatAccountIds: [],
    profile: 'standard',
    runs: PROFILES.standard,
    reportDir: 'reports',
    strict: false,
    failFast: false,
    timeoutMs: 10_000,
    rateLimitPerSecond: null,
    concurrency: 8,
    maxRetries: 3,
    ruleFilter: [],
    reading: {},
    ...overrides,
  };
}

const DEFAULTS = runConfig({ seed: 0 });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How the caller would write a setting with a value: `--shard 2/3` on the command line, `shard` in the library. */
const sample = (settings: GivenSettings, key: SettingKey, value: string): string =>
  settings.caller === 'cli' ? `--${key} ${value}` : callerName('library', key);

/**
 * Every path of the document begins with /v2 (section 4): a base URL that ends with it, as many
 * OpenAPI `servers` entries do, would request /v2/v2/... and blame the target for the 404s.
 */
function checkBaseUrl(settings: GivenSettings, baseUrl: string): void {
  const name = nameOf(settings, 'base-url');
  checkUrl(name, baseUrl, credentialsHint(settings));
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (/\/v2$/i.test(path)) {
    throw new UsageError(
      `${name} ${baseUrl} ends with the version segment /v2, which every path of the document already begins with: give ${baseUrl.replace(/\/v2\/*$/i, '')} instead`,
    );
  }
}

/** Parses flags and environment into a RunConfig, as `conformance run` does, or throws a UsageError. Returns null for --help. */
export function resolveRunConfig(argv: string[], env: Env, randomSeed: () => number): RunConfig | null {
  const settings = settingsOfArgv(argv, env);
  return settings ? resolveSettings(settings, randomSeed) : null;
}

/**
 * Resolves the settings a caller gave (the command line's flags or the library's options, with
 * their environment twins) into a RunConfig: the one place settings are checked and defaulted.
 * Throws a UsageError, one line naming the setting as the caller wrote it, for a bad setting.
 */
export function resolveSettings(settings: GivenSettings, randomSeed: () => number, use: SettingsUse = {}): RunConfig {
  const output = { ...(switchOf(settings, 'quiet') ? { quiet: true } : {}), ...(switchOf(settings, 'json') ? { json: true } : {}) };
  // --list-rules sends nothing: no target, credentials or seed to check, only the --rule filter.
  if (switchOf(settings, 'list-rules')) return runConfig({ seed: 0, ruleFilter: checkedRuleFilter(settings), listRules: true, ...output });

  const target = resolveTarget(settings, use);
  const loopback = target.baseUrl === undefined || isLoopback(target.baseUrl);
  const profileName = textOf(settings, 'profile') ?? defaultProfile(!loopback);
  if (!(profileName in PROFILES))
    throw new UsageError(`${nameOf(settings, 'profile')} must be one of ${Object.keys(PROFILES).join(', ')}, got "${profileName}"`);
  const profile = profileName as Profile;
  const seed = wholeNumberOf(settings, 'seed', { min: -Number.MAX_SAFE_INTEGER }) ?? randomSeed();
  const rate = wholeNumberOf(settings, 'rate-limit') ?? (loopback ? 0 : REMOTE_RATE_LIMIT);
  const shard = resolveShard(settings);
  const ruleFilter = checkedRuleFilter(settings);
  const runs = wholeNumberOf(settings, 'runs') ?? PROFILES[profile];
  // Shards run at the same time: against a remote target each writes accounts of its own (shard-accounts.ts).
  const accounts =
    shard && target.baseUrl !== undefined
      ? {
          fiatAccountIds: shardAccounts(target.fiatAccountIds, shard, shardAccountNeeds(ruleFilter, runs, shard.count)),
          fiatAccountsGiven: new Set(target.fiatAccountIds.map((id) => id.toLowerCase())).size,
        }
      : { fiatAccountIds: target.fiatAccountIds };
  const noRestore = switchOf(settings, 'no-restore');
  const maxRequests = wholeNumberOf(settings, 'max-requests', { min: 1 });
  // Before anything is sent: a budget that cannot hold the probe names the smallest that can.
  if (maxRequests !== undefined) {
    const pool = poolSize({ baseUrl: target.baseUrl, ...accounts });
    checkBudget({ maxRequests, reserved: reservedRequests(pool, !noRestore) }, pool, nameOf(settings, 'max-requests'));
  }
  const restorePatience = wholeNumberOf(settings, 'restore-patience', { max: MAX_TIMER_MS / 1000 });
  const lifetimeMs = lifetimeOf(settings);

  return {
    baseUrl: target.baseUrl?.replace(/\/+$/, ''),
    auth: target.auth,
    ...accounts,
    seed,
    profile,
    runs,
    reportDir: reportDir(settings),
    strict: switchOf(settings, 'strict'),
    failFast: switchOf(settings, 'fail-fast'),
    ...(noRestore ? { noRestore: true } : {}),
    ...(switchOf(settings, 'read-with-empty-update') ? { readWithEmptyUpdate: true } : {}),
    ...(restorePatience !== undefined ? { restorePatienceMs: restorePatience * 1000 } : {}),
    ...(lifetimeMs ? { lifetimeMs } : {}),
    ...stateFileOf(settings, target.baseUrl),
    timeoutMs: wholeNumberOf(settings, 'timeout', { min: 1, max: MAX_TIMER_MS }) ?? DEFAULTS.timeoutMs,
    rateLimitPerSecond: rate === 0 ? null : rate,
    concurrency: wholeNumberOf(settings, 'concurrency', { min: 1 }) ?? DEFAULTS.concurrency,
    maxRetries: wholeNumberOf(settings, 'max-retries') ?? DEFAULTS.maxRetries,
    ...(maxRequests !== undefined ? { maxRequests } : {}),
    ruleFilter,
    ...(shard ? { shard } : {}),
    ...(target.fault ? { fault: target.fault } : {}),
    reading: target.reading,
    ...bundleSettings(settings),
    ...output,
  };
}

/** What the settings are resolved for: `conformance plan` sends nothing, so it needs no credentials. */
export interface SettingsUse {
  /** False: nothing will be sent (a plan), so a remote target without credentials is no error. */
  sends?: boolean;
}

/** The target: a remote one (its URL, credentials and accounts), or the embedded server (its fault and reading). */
function resolveTarget(settings: GivenSettings, use: SettingsUse): Pick<RunConfig, 'baseUrl' | 'auth' | 'fiatAccountIds' | 'fault' | 'reading'> {
  const cli = settings.caller === 'cli';
  const baseUrl = textOf(settings, 'base-url');
  if (baseUrl !== undefined) checkBaseUrl(settings, baseUrl);
  const auth = resolveAuth(settings);
  const fiatAccountIds = listOf(settings, 'fiat-account-id');
  const malformed = fiatAccountIds.filter((id) => !UUID.test(id));
  if (malformed.length) {
    throw new UsageError(
      `${nameOf(settings, 'fiat-account-id')} ${malformed.map((id) => JSON.stringify(id)).join(', ')} is not a UUID (section 4.1 types the id as one): give the ids of existing fiat accounts`,
    );
  }
  const fault = textOf(settings, 'fault');
  const readingPairs = Object.fromEntries(
    listOf(settings, 'reading').map((pair) => {
      const [key, value] = pair.split('=');
      if (!key || !value) throw new UsageError(`${nameOf(settings, 'reading')} takes key=value, e.g. placement=top; got "${pair}"`);
      return [key, value];
    }),
  );
  if (baseUrl !== undefined) {
    if (!fiatAccountIds.length) {
      throw new UsageError(
        `a remote target needs at least one existing fiat account id: ${cli ? '--fiat-account-id UUID' : 'fiatAccountIds'} (or CONFORMANCE_FIAT_ACCOUNT_IDS)`,
      );
    }
    if (auth.kind === 'none' && use.sends !== false) {
      throw new UsageError(
        cli
          ? 'a remote target needs credentials: --token T, or --auth-url URL --client-id ID --client-secret S'
          : 'a remote target needs credentials: token, or clientCredentials with tokenUrl, clientId and clientSecret',
      );
    }
    if (fault || Object.keys(readingPairs).length) {
      throw new UsageError(
        `${callerName(settings.caller, 'fault')} and ${callerName(settings.caller, 'reading')} apply to the embedded server only; drop them or drop ${nameOf(settings, 'base-url')}`,
      );
    }
  }
  return { baseUrl, auth, fiatAccountIds, ...(fault ? { fault } : {}), reading: parseReading(readingPairs) };
}

/** --shard i/n, which needs a seed: a random seed per runner would make the shards unmergeable. */
function resolveShard(settings: GivenSettings): Shard | undefined {
  const shard = textOf(settings, 'shard');
  if (shard === undefined) return undefined;
  // Every shard must draw the same cases: a random seed per runner would make them unmergeable.
  if (settings.get('seed') === undefined) {
    throw new UsageError(
      settings.caller === 'cli'
        ? '--shard needs --seed (or CONFORMANCE_SEED), the same on every shard, so that the shards share out one run; e.g. --seed 42 --shard 1/3'
        : `${nameOf(settings, 'shard')} needs seed (or CONFORMANCE_SEED), the same on every shard, so that the shards share out one run; e.g. seed: 42, shard: '1/3'`,
    );
  }
  const { name, from } = settings.get('shard')!;
  return parseShard(shard, name, from === 'option' ? "'2/3'" : from === 'env' ? `${name}=2/3` : undefined);
}

/** The longest --lifetime: a day (a CI job that waits longer keeps state between runs instead: --state). */
const MAX_LIFETIME_MS = 24 * 3_600_000;

/** --lifetime DURATION in ms (0: off), or a UsageError naming the setting as given. */
function lifetimeOf(settings: GivenSettings): number | undefined {
  const raw = settings.get('lifetime');
  if (raw === undefined) return undefined;
  const ms = typeof raw.value === 'number' ? raw.value * 1000 : parseDuration(String(raw.value));
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > MAX_LIFETIME_MS)
    throw new UsageError(`${raw.name} must be a duration of at most 24h such as 30s, 5m or 1h (a bare number is seconds), got ${JSON.stringify(raw.value)}`);
  return ms;
}

/** --state FILE, which means something only for a target that outlives the run. */
function stateFileOf(settings: GivenSettings, baseUrl: string | undefined): { stateFile?: string } {
  const file = textOf(settings, 'state');
  if (file === undefined) return {};
  if (!file.trim()) throw new UsageError(`${nameOf(settings, 'state')} is empty: give the file kept between runs, or leave it out`);
  if (baseUrl === undefined)
    throw new UsageError(
      `${nameOf(settings, 'state')} needs ${callerName(settings.caller, 'base-url')}: the embedded server a run starts is new every time and remembers no earlier run`,
    );
  return { stateFile: file };
}

/** --bundle with its --sign-key and --redact-personal, which mean nothing without it. */
function bundleSettings(settings: GivenSettings): { bundle?: BundleSettings } {
  const file = textOf(settings, 'bundle');
  const signKeyFile = textOf(settings, 'sign-key');
  const redactPersonal = switchOf(settings, 'redact-personal');
  if (file === undefined) {
    if (signKeyFile !== undefined || redactPersonal) {
      const [signKey, redact] = [callerName(settings.caller, 'sign-key'), callerName(settings.caller, 'redact-personal')];
      throw new UsageError(`${signKey} and ${redact} apply to the bundle: add ${sample(settings, 'bundle', 'FILE')}`);
    }
    return {};
  }
  if (!file.trim())
    throw new UsageError(
      `${nameOf(settings, 'bundle')} is empty: give the file for the evidence bundle, e.g. ${sample(settings, 'bundle', 'evidence.tar.gz')}`,
    );
  if (signKeyFile !== undefined && !signKeyFile.trim()) throw new UsageError(`${nameOf(settings, 'sign-key')} is empty: give a PEM Ed25519 private key file`);
  return { bundle: { file, ...(signKeyFile !== undefined ? { signKeyFile } : {}), redactPersonal } };
}

/** The --rule prefixes, each matching some rule id, or a UsageError. */
function checkedRuleFilter(settings: GivenSettings): string[] {
  const ruleFilter = listOf(settings, 'rule');
  const unmatched = ruleFilter.filter((prefix) => !RULES.some((r) => r.id.startsWith(prefix)));
  if (unmatched.length) {
    const lister = settings.caller === 'cli' ? '`conformance run --list-rules`' : "the package's RULES";
    throw new UsageError(
      `${nameOf(settings, 'rule')} ${unmatched.join(', ')} matches no rule id (ids look like fa.metadata.max-pairs-accepted or id.tax.absent-rejected; ${lister} lists them all)`,
    );
  }
  return ruleFilter;
}

/** --report-dir '' (an unset shell variable) would write into the working directory: refuse it. */
function reportDir(settings: GivenSettings): string {
  const raw = textOf(settings, 'report-dir');
  if (raw === undefined) return DEFAULTS.reportDir;
  const leave = settings.caller === 'cli' ? 'leave the flag out' : 'leave the option out';
  if (!raw.trim()) throw new UsageError(`${nameOf(settings, 'report-dir')} is empty: give a folder, or ${leave} for ${DEFAULTS.reportDir}/`);
  return raw;
}

/** How the caller gives credentials, for a URL that carries some. */
const credentialsHint = (settings: GivenSettings): string =>
  settings.caller === 'cli' ? 'give them with --token or the client credentials flags' : 'give them with token or clientCredentials';

/** A static token or client credentials, from the settings as given (the command line's, the library's, or another command's flags). */
export function resolveAuth(settings: GivenSettings): AuthConfig {
  const givenToken = textOf(settings, 'token');
  const tokenUrl = textOf(settings, 'auth-url');
  const clientId = textOf(settings, 'client-id');
  const clientSecret = textOf(settings, 'client-secret');
  const scope = textOf(settings, 'scope');
  const name = (key: SettingKey) => callerName(settings.caller, key);
  // `conformance serve`'s credentials file (a .env) holds both: the token for curl lines by hand,
  // the client credentials for a run. Both from the environment, the client credentials win.
  const fromEnv = (key: SettingKey) => settings.get(key)?.from === 'env';
  const bothFromEnv = tokenUrl && clientId && clientSecret && (['token', 'auth-url', 'client-id', 'client-secret'] as const).every(fromEnv);
  const token = bothFromEnv ? undefined : givenToken;
  if (token && (tokenUrl || clientId || clientSecret)) {
    throw new UsageError(
      settings.caller === 'cli'
        ? 'give either --token or client credentials (--auth-url, --client-id, --client-secret), not both'
        : 'give either token or clientCredentials, not both',
    );
  }
  if (token) return { kind: 'static', token };
  if (tokenUrl || clientId || clientSecret) {
    const missing = [!tokenUrl && name('auth-url'), !clientId && name('client-id'), !clientSecret && name('client-secret')].filter(Boolean);
    if (missing.length) throw new UsageError(`client credentials need ${missing.join(', ')} as well`);
    checkUrl(nameOf(settings, 'auth-url'), tokenUrl!, credentialsHint(settings));
    return { kind: 'client-credentials', tokenUrl: tokenUrl!, clientId: clientId!, clientSecret: clientSecret!, ...(scope ? { scope } : {}) };
  }
  return { kind: 'none' };
}

export function checkUrl(name: string, value: string, credentials = 'give them with --token or the client credentials flags'): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a URL: "${value}" (expected e.g. https://sandbox.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} must be an http or https URL, got "${value}"`);
  // A password in a URL would be written into every report and console line that names the target.
  if (url.username || url.password) throw new UsageError(`${name} must not carry credentials (user:password@); ${credentials}`);
}

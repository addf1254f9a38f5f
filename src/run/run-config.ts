/**
 * `conformance run` settings, resolved once: CLI flags over environment (`.env` through dotenv)
 * over defaults (docs/design.md section 4.6). Nothing else reads the environment. Errors are UsageErrors: one
 * line that says what to do.
 */
import { parseCommandArgs } from './command-args.ts';
import { UsageError } from '../core/errors.ts';
import { RULES } from '../core/catalogue.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { isLoopback } from '../core/url.ts';
import { parseReading, type Reading } from '../server/reading.ts';
import type { Env, RunOptions } from './run-options.ts';

import { PLANNED_REQUESTS, PROFILES, REMOTE_REQUEST_BUDGET, defaultProfile, type Profile } from '../engine/profiles.ts';
import { formatDuration } from '../core/duration.ts';
import { MAX_TIMER_MS, wholeNumberFlag } from './whole-number-flag.ts';
import { parseShard, type Shard } from '../engine/shard.ts';
import { checkBudget } from '../engine/request-budget.ts';
import { poolSize, reservedRequests } from './request-reserve.ts';
import { shardAccountNeeds, shardAccounts } from './shard-accounts.ts';

/** Requests per second against a remote target unless told otherwise: gentle on shared sandboxes. */
export const REMOTE_RATE_LIMIT = 10;

export interface RunConfig {
  /** Undefined: start the embedded server. */
  baseUrl?: string;
  auth: AuthConfig;
  fiatAccountIds: string[];
  seed: number;
  /** A profile name, or `custom` when the runs were chosen directly (self-test, fault matrix). */
  profile: Profile | 'custom';
  runs: number;
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
  /** --shard i/n: run only this shard's share of the cases; `conformance merge` joins the shards' reports. */
  shard?: Shard;
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
  /** --no-restore: leave the pool's fiat accounts as the run's last update left them (they are put back by default). */
  noRestore?: boolean;
  /** --read-with-empty-update: a target without GET of fiat accounts may be read with `PUT {}` (a write where PUT replaces the record). */
  readWithEmptyUpdate?: boolean;
  /** --restore-patience: how long each request of the restore waits for a target that is away (429, 5xx, no answer), ms. */
  restorePatienceMs?: number;
  /** Embedded server only: its strict variant, the open points restricted (set by self-test and the fault matrix). */
  strictServer?: boolean;
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

/** Each profile with its random cases and what it costs a sandbox at the remote rate limit. */
function profileHelp(): string {
  const each = (Object.keys(PROFILES) as Profile[]).map(
    (p) =>
      `${p} (${PROFILES[p]}: about ${PLANNED_REQUESTS[p]} requests, ${formatDuration((PLANNED_REQUESTS[p] / REMOTE_RATE_LIMIT) * 1000)} at ${REMOTE_RATE_LIMIT}/s)`,
  );
  return `random cases per rule: ${each.join(', ')}; default standard, for a remote target the deepest within ${REMOTE_REQUEST_BUDGET} requests (${defaultProfile(true)})`;
}

/** Every flag, its environment twin and its help line. */
export const RUN_OPTIONS = {
  'base-url': { type: 'string', env: 'CONFORMANCE_BASE_URL', help: 'target base URL (default: start the embedded reference server)' },
  token: { type: 'string', env: 'CONFORMANCE_TOKEN', help: 'static bearer token' },
  'auth-url': { type: 'string', env: 'CONFORMANCE_AUTH_URL', help: 'OAuth 2 token endpoint (client credentials grant)' },
  'client-id': { type: 'string', env: 'CONFORMANCE_CLIENT_ID', help: 'OAuth 2 client id' },
  'client-secret': { type: 'string', env: 'CONFORMANCE_CLIENT_SECRET', help: 'OAuth 2 client secret' },
  scope: { type: 'string', env: 'CONFORMANCE_SCOPE', help: 'OAuth 2 scopes, space separated' },
  'fiat-account-id': {
    type: 'string',
    multiple: true,
    env: 'CONFORMANCE_FIAT_ACCOUNT_IDS',
    help: 'an existing fiat account id of the target (repeat, or comma-separated in the env)',
  },
  seed: {
    type: 'string',
    env: 'CONFORMANCE_SEED',
    help: 'seed of the run; the same seed regenerates the same cases (default: random, printed; an empty CONFORMANCE_SEED counts as unset, an empty --seed is an error)',
  },
  profile: { type: 'string', env: 'CONFORMANCE_PROFILE', help: profileHelp() },
  runs: { type: 'string', env: 'CONFORMANCE_RUNS', help: 'random cases per rule, overriding the profile' },
  'report-dir': { type: 'string', env: 'CONFORMANCE_REPORT_DIR', help: 'where the reports go (default: reports)' },
  strict: { type: 'boolean', env: 'CONFORMANCE_STRICT', help: 'a failed convention rule also fails the run' },
  'fail-fast': {
    type: 'boolean',
    env: 'CONFORMANCE_FAIL_FAST',
    help: 'end the run at the first failure of a documented rule (any rule, with --strict); the reports are written, exit 1',
  },
  'no-restore': {
    type: 'boolean',
    env: 'CONFORMANCE_NO_RESTORE',
    help: 'leave the fiat accounts as the run last wrote them (by default they are read before the run and what differs is written back at its end)',
  },
  'read-with-empty-update': {
    type: 'boolean',
    env: 'CONFORMANCE_READ_WITH_EMPTY_UPDATE',
    help: 'read the fiat accounts with an empty update (PUT {}) when the target answers no GET of them; on a target whose PUT replaces the record this wipes the account before the journal is written, so only for targets known to keep what an update does not send',
  },
  'restore-patience': {
    type: 'string',
    env: 'CONFORMANCE_RESTORE_PATIENCE',
    help: 'seconds each request of the restore is tried again while the target is away (429, 5xx, timeouts, resets; Retry-After honoured) (default 60)',
  },
  timeout: { type: 'string', env: 'CONFORMANCE_TIMEOUT_MS', help: 'per-request timeout in ms (default 10000)' },
  'rate-limit': {
    type: 'string',
    env: 'CONFORMANCE_RATE_LIMIT',
    help: `requests per second; 0 = unlimited (default: unlimited on loopback, ${REMOTE_RATE_LIMIT} for remote targets)`,
  },
  concurrency: {
    type: 'string',
    env: 'CONFORMANCE_CONCURRENCY',
    help: 'requests in flight at most: cases are sent ahead and judged in order, the updates of one fiat account one at a time, so a seed gives the same verdict at any concurrency (default 8)',
  },
  'max-retries': { type: 'string', env: 'CONFORMANCE_MAX_RETRIES', help: 'retries of a 429 answer, honouring Retry-After (default 3)' },
  'max-requests': {
    type: 'string',
    env: 'CONFORMANCE_MAX_REQUESTS',
    help: 'a hard cap on the requests sent to the target (retries, the reachability check and shrinking included): fewer random cases first, then scenarios, then fixed cases; rules left short are inconclusive and say why (default: no cap; `conformance plan` shows what fits)',
  },
  shard: {
    type: 'string',
    env: 'CONFORMANCE_SHARD',
    help: 'i/n: run the i-th of n deterministic shares of the cases (same seed and profile on every shard), then `conformance merge` the n reports for the verdict',
  },
  rule: {
    type: 'string',
    multiple: true,
    env: 'CONFORMANCE_RULES',
    help: 'only rules whose id starts with this (repeat, or comma-separated in the env), e.g. fa.metadata',
  },
  fault: { type: 'string', env: 'CONFORMANCE_FAULT', help: 'embedded server only: inject this fault (see `conformance serve --list-faults`)' },
  reading: {
    type: 'string',
    multiple: true,
    env: 'CONFORMANCE_READING',
    help: 'embedded server only: a reading, e.g. placement=top, reject-status=422 (repeatable)',
  },
  bundle: {
    type: 'string',
    env: 'CONFORMANCE_BUNDLE',
    help: 'also write the evidence bundle (.tar.gz: the reports, exchanges.har, a manifest with every SHA-256) to this file, whatever the verdict; check it with `conformance verify`',
  },
  'sign-key': {
    type: 'string',
    env: 'CONFORMANCE_SIGN_KEY',
    help: 'with --bundle: sign its manifest with this Ed25519 private key (PEM; `conformance keygen` makes a pair); without it the bundle says it is unsigned',
  },
  'redact-personal': {
    type: 'boolean',
    env: 'CONFORMANCE_REDACT_PERSONAL',
    help: 'with --bundle: replace names, account numbers, government ids, emails, phone numbers, dates of birth and addresses in every file of the bundle with stand-ins of the same shape',
  },
  'list-rules': {
    type: 'boolean',
    help: 'print every rule (id, section, basis, title; --rule filters them, --json makes a JSON array) and exit: no request sent, no server started',
  },
  quiet: { type: 'boolean', env: 'CONFORMANCE_QUIET', help: 'print only errors, the reports line and the verdict line: no progress, no table' },
  json: {
    type: 'boolean',
    env: 'CONFORMANCE_JSON',
    help: 'print one JSON result on stdout (verdict, exit code, counts, failing rules, report paths); the human lines go to stderr',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; multiple?: boolean; env?: string; short?: string; help: string }>;

export function runHelp(): string {
  const lines = Object.entries(RUN_OPTIONS).map(([name, o]) => {
    const flag = `--${name}${o.type === 'string' ? ' <value>' : ''}`;
    const env = 'env' in o ? `  [${o.env}]` : '';
    return `  ${flag.padEnd(28)} ${o.help}${env}`;
  });
  return ['usage: conformance run [options]', '', ...lines, '', 'Flags win over environment variables; a .env file in the working directory is read.'].join(
    '\n',
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every path of the document begins with /v2 (section 4): a base URL that ends with it, as many
 * OpenAPI `servers` entries do, would request /v2/v2/... and blame the target for the 404s.
 */
function checkBaseUrl(baseUrl: string): void {
  checkUrl('--base-url', baseUrl);
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (/\/v2$/i.test(path)) {
    throw new UsageError(
      `--base-url ${baseUrl} ends with the version segment /v2, which every path of the document already begins with: give ${baseUrl.replace(/\/v2\/*$/i, '')} instead`,
    );
  }
}

/** `conformance run`'s flags as run options, or null for --help: the command line's one parse of its arguments. */
export function runOptionsOfArgv(argv: string[], command = 'run'): RunOptions | null {
  const { values } = parseCommandArgs(command, argv, RUN_OPTIONS);
  if (values.help) return null;
  return {
    baseUrl: values['base-url'],
    token: values.token,
    clientCredentials: { tokenUrl: values['auth-url'], clientId: values['client-id'], clientSecret: values['client-secret'], scope: values.scope },
    fiatAccountIds: values['fiat-account-id'],
    rules: values.rule,
    seed: values.seed,
    profile: values.profile,
    runs: values.runs,
    strict: values.strict,
    failFast: values['fail-fast'],
    noRestore: values['no-restore'],
    readWithEmptyUpdate: values['read-with-empty-update'],
    restorePatience: values['restore-patience'],
    shard: values.shard,
    reportDir: values['report-dir'],
    rateLimit: values['rate-limit'],
    concurrency: values.concurrency,
    timeoutMs: values.timeout,
    maxRetries: values['max-retries'],
    maxRequests: values['max-requests'],
    fault: values.fault,
    reading: values.reading,
    bundle: values.bundle,
    signKey: values['sign-key'],
    redactPersonal: values['redact-personal'],
    listRules: values['list-rules'],
    quiet: values.quiet,
    json: values.json,
  };
}

/** Parses flags and environment into a RunConfig, as `conformance run` does, or throws a UsageError. Returns null for --help. */
export function resolveRunConfig(argv: string[], env: Env, randomSeed: () => number): RunConfig | null {
  const options = runOptionsOfArgv(argv);
  return options ? resolveRunOptions({ ...options, env }, randomSeed) : null;
}

/**
 * Resolves run options (the library's, or the command line's) with their environment twins into
 * a RunConfig: the one place settings are checked and defaulted. Throws a UsageError, one line
 * naming the flag, for a bad setting.
 */
export function resolveRunOptions(options: RunOptions, randomSeed: () => number): RunConfig {
  const pick = optionPicker(options);
  const list = optionLister(options);
  const on = (name: SwitchFlag): boolean => SWITCH_OF_FLAG[name](options) === true || /^(1|true|yes)$/i.test(envTwin(options.env ?? {}, name) ?? '');
  const output = { ...(on('quiet') ? { quiet: true } : {}), ...(on('json') ? { json: true } : {}) };
  const int = (name: TextFlag, fallback: number, min = 0, max?: number): number =>
    wholeNumberFlag(`--${name}`, pick(name), { min, ...(max !== undefined ? { max } : {}) }) ?? fallback;

  // --list-rules sends nothing: no target, credentials or seed to check, only the --rule filter.
  if (options.listRules === true) return runConfig({ seed: 0, ruleFilter: checkedRuleFilter(list('rule')), listRules: true, ...output });

  const baseUrl = pick('base-url');
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const auth = resolveAuth(pick);
  const fiatAccountIds = list('fiat-account-id');
  const malformed = fiatAccountIds.filter((id) => !UUID.test(id));
  if (malformed.length) {
    throw new UsageError(
      `--fiat-account-id ${malformed.map((id) => JSON.stringify(id)).join(', ')} is not a UUID (section 4.1 types the id as one): give the ids of existing fiat accounts`,
    );
  }
  const fault = pick('fault');
  const readingPairs = Object.fromEntries(
    list('reading').map((pair) => {
      const [key, value] = pair.split('=');
      if (!key || !value) throw new UsageError(`--reading takes key=value, e.g. placement=top; got "${pair}"`);
      return [key, value];
    }),
  );

  if (baseUrl !== undefined) {
    if (!fiatAccountIds.length) {
      throw new UsageError('a remote target needs at least one existing fiat account id: --fiat-account-id UUID (or CONFORMANCE_FIAT_ACCOUNT_IDS)');
    }
    if (auth.kind === 'none') {
      throw new UsageError('a remote target needs credentials: --token T, or --auth-url URL --client-id ID --client-secret S');
    }
    if (fault || Object.keys(readingPairs).length)
      throw new UsageError('--fault and --reading apply to the embedded server only; drop them or drop --base-url');
  }

  const reading = parseReading(readingPairs);
  const loopback = baseUrl === undefined || isLoopback(baseUrl);
  const profileName = pick('profile') ?? defaultProfile(!loopback);
  if (!(profileName in PROFILES)) throw new UsageError(`--profile must be one of ${Object.keys(PROFILES).join(', ')}, got "${profileName}"`);
  const profile = profileName as Profile;
  const seed = wholeNumberFlag('--seed', pick('seed'), { min: -Number.MAX_SAFE_INTEGER }) ?? randomSeed();
  const rate = int('rate-limit', loopback ? 0 : REMOTE_RATE_LIMIT);

  const shard = pick('shard');
  // Every shard must draw the same cases: a random seed per runner would make them unmergeable.
  if (shard !== undefined && pick('seed') === undefined) {
    throw new UsageError(
      '--shard needs --seed (or CONFORMANCE_SEED), the same on every shard, so that the shards share out one run; e.g. --seed 42 --shard 1/3',
    );
  }
  const ruleFilter = checkedRuleFilter(list('rule'));
  const runs = int('runs', PROFILES[profile]);
  const parsedShard = shard !== undefined ? parseShard(shard) : undefined;
  // Shards run at the same time: against a remote target each writes accounts of its own (shard-accounts.ts).
  const accounts =
    parsedShard && baseUrl !== undefined
      ? {
          fiatAccountIds: shardAccounts(fiatAccountIds, parsedShard, shardAccountNeeds(ruleFilter, runs, parsedShard.count)),
          fiatAccountsGiven: new Set(fiatAccountIds.map((id) => id.toLowerCase())).size,
        }
      : { fiatAccountIds };
  const maxRequests = wholeNumberFlag('--max-requests', pick('max-requests'), { min: 1 });
  // Before anything is sent: a budget that cannot hold the probe names the smallest that can.
  if (maxRequests !== undefined)
    checkBudget({ maxRequests, reserved: reservedRequests(poolSize({ baseUrl, ...accounts }), !on('no-restore')) }, poolSize({ baseUrl, ...accounts }));

  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    auth,
    ...accounts,
    seed,
    profile,
    runs,
    reportDir: reportDir(pick('report-dir')),
    strict: on('strict'),
    failFast: on('fail-fast'),
    ...(on('no-restore') ? { noRestore: true } : {}),
    ...(on('read-with-empty-update') ? { readWithEmptyUpdate: true } : {}),
    ...(pick('restore-patience') !== undefined ? { restorePatienceMs: int('restore-patience', 60, 0, MAX_TIMER_MS / 1000) * 1000 } : {}),
    timeoutMs: int('timeout', DEFAULTS.timeoutMs, 1, MAX_TIMER_MS),
    rateLimitPerSecond: rate === 0 ? null : rate,
    concurrency: int('concurrency', DEFAULTS.concurrency, 1),
    maxRetries: int('max-retries', DEFAULTS.maxRetries),
    ...(maxRequests !== undefined ? { maxRequests } : {}),
    ruleFilter,
    ...(parsedShard ? { shard: parsedShard } : {}),
    ...(fault ? { fault } : {}),
    reading,
    ...bundleSettings(pick, on('redact-personal')),
    ...output,
  };
}

/** --bundle with its --sign-key and --redact-personal, which mean nothing without it. */
function bundleSettings(pick: OptionPicker, redactPersonal: boolean): { bundle?: BundleSettings } {
  const file = pick('bundle');
  const signKeyFile = pick('sign-key');
  if (file === undefined) {
    if (signKeyFile !== undefined || redactPersonal) throw new UsageError('--sign-key and --redact-personal apply to the bundle: add --bundle FILE');
    return {};
  }
  if (!file.trim()) throw new UsageError('--bundle is empty: give the file for the evidence bundle, e.g. --bundle evidence.tar.gz');
  if (signKeyFile !== undefined && !signKeyFile.trim()) throw new UsageError('--sign-key is empty: give a PEM Ed25519 private key file');
  return { bundle: { file, ...(signKeyFile !== undefined ? { signKeyFile } : {}), redactPersonal } };
}

/** The --rule prefixes, each matching some rule id, or a UsageError. */
function checkedRuleFilter(ruleFilter: string[]): string[] {
  const unmatched = ruleFilter.filter((prefix) => !RULES.some((r) => r.id.startsWith(prefix)));
  if (unmatched.length) {
    throw new UsageError(
      `--rule ${unmatched.join(', ')} matches no rule id (ids look like fa.metadata.max-pairs-accepted or id.tax.absent-rejected; \`conformance run --list-rules\` lists them all)`,
    );
  }
  return ruleFilter;
}

/** --report-dir '' (an unset shell variable) would write into the working directory: refuse it. */
function reportDir(raw: string | undefined): string {
  if (raw === undefined) return DEFAULTS.reportDir;
  if (!raw.trim()) throw new UsageError(`--report-dir is empty: give a folder, or leave the flag out for ${DEFAULTS.reportDir}/`);
  return raw;
}

/** The option each flag of one value sets. */
const SETTING_OF_FLAG = {
  'base-url': (o) => o.baseUrl,
  token: (o) => o.token,
  'auth-url': (o) => o.clientCredentials?.tokenUrl,
  'client-id': (o) => o.clientCredentials?.clientId,
  'client-secret': (o) => o.clientCredentials?.clientSecret,
  scope: (o) => o.clientCredentials?.scope,
  seed: (o) => o.seed,
  profile: (o) => o.profile,
  runs: (o) => o.runs,
  'report-dir': (o) => o.reportDir,
  timeout: (o) => o.timeoutMs,
  'rate-limit': (o) => o.rateLimit,
  concurrency: (o) => o.concurrency,
  'max-retries': (o) => o.maxRetries,
  'max-requests': (o) => o.maxRequests,
  'restore-patience': (o) => o.restorePatience,
  shard: (o) => o.shard,
  fault: (o) => o.fault,
  bundle: (o) => o.bundle,
  'sign-key': (o) => o.signKey,
} as const satisfies Partial<Record<keyof typeof RUN_OPTIONS, (o: RunOptions) => string | number | undefined>>;

/** The option each repeatable flag sets (a reading given as an object is its key=value pairs). */
const LIST_OF_FLAG = {
  'fiat-account-id': (o) => o.fiatAccountIds,
  rule: (o) => o.rules,
  reading: (o) =>
    o.reading === undefined || Array.isArray(o.reading)
      ? (o.reading as readonly string[] | undefined)
      : Object.entries(o.reading).map(([key, value]) => `${key}=${value}`),
} as const satisfies Partial<Record<keyof typeof RUN_OPTIONS, (o: RunOptions) => readonly string[] | undefined>>;

/** The option each switch sets. */
const SWITCH_OF_FLAG = {
  strict: (o) => o.strict,
  'fail-fast': (o) => o.failFast,
  'no-restore': (o) => o.noRestore,
  'read-with-empty-update': (o) => o.readWithEmptyUpdate,
  'redact-personal': (o) => o.redactPersonal,
  quiet: (o) => o.quiet,
  json: (o) => o.json,
} as const satisfies Partial<Record<keyof typeof RUN_OPTIONS, (o: RunOptions) => boolean | undefined>>;

type TextFlag = keyof typeof SETTING_OF_FLAG;
type ListFlag = keyof typeof LIST_OF_FLAG;
type SwitchFlag = keyof typeof SWITCH_OF_FLAG;

/** A flag's environment twin, an empty or blank variable counting as unset (`CONFORMANCE_SEED=` in a .env template). */
function envTwin(env: Env, name: keyof typeof RUN_OPTIONS): string | undefined {
  const option = RUN_OPTIONS[name] as { env?: string };
  const fromEnv = option.env ? env[option.env] : undefined;
  return fromEnv?.trim() === '' ? undefined : fromEnv;
}

/**
 * Reads one setting: the option when given (a number as its digits), else its environment twin.
 * An empty option is the option's value (an empty flag), so each setting refuses it where it must.
 */
export type OptionPicker = (name: TextFlag) => string | undefined;

export function optionPicker(options: RunOptions): OptionPicker {
  return (name) => {
    const given = SETTING_OF_FLAG[name](options);
    return given !== undefined ? String(given) : envTwin(options.env ?? {}, name);
  };
}

/** Reads a repeatable setting: the option's entries when it has any, else its environment twin; comma-separated, trimmed. */
function optionLister(options: RunOptions): (name: ListFlag) => string[] {
  const split = (values: readonly string[]) =>
    values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  return (name) => {
    const given = LIST_OF_FLAG[name](options);
    return given?.length ? split(given) : split([envTwin(options.env ?? {}, name) ?? '']);
  };
}

export function resolveAuth(pick: OptionPicker): AuthConfig {
  const token = pick('token');
  const tokenUrl = pick('auth-url');
  const clientId = pick('client-id');
  const clientSecret = pick('client-secret');
  const scope = pick('scope');
  if (token && (tokenUrl || clientId || clientSecret)) {
    throw new UsageError('give either --token or client credentials (--auth-url, --client-id, --client-secret), not both');
  }
  if (token) return { kind: 'static', token };
  if (tokenUrl || clientId || clientSecret) {
    const missing = [!tokenUrl && '--auth-url', !clientId && '--client-id', !clientSecret && '--client-secret'].filter(Boolean);
    if (missing.length) throw new UsageError(`client credentials need ${missing.join(', ')} as well`);
    checkUrl('--auth-url', tokenUrl!);
    return { kind: 'client-credentials', tokenUrl: tokenUrl!, clientId: clientId!, clientSecret: clientSecret!, ...(scope ? { scope } : {}) };
  }
  return { kind: 'none' };
}

export function checkUrl(flag: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} is not a URL: "${value}" (expected e.g. https://sandbox.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL, got "${value}"`);
  // A password in a URL would be written into every report and console line that names the target.
  if (url.username || url.password)
    throw new UsageError(`${flag} must not carry credentials (user:password@); give them with --token or the client credentials flags`);
}

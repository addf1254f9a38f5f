/**
 * The flags of `conformance run` (and `conformance plan`): each with its environment twin and its
 * help line. The library's options are the same settings under their camelCase names
 * (each entry's `option`); one resolver (run-config.ts) reads both, naming each as the caller wrote it.
 */
import { PLANNED_REQUESTS, PROFILES, REMOTE_REQUEST_BUDGET, defaultProfile, type Profile } from '../engine/profiles.ts';
import { formatDuration } from '../core/duration.ts';

/** Requests per second against a remote target unless told otherwise: gentle on shared sandboxes. */
export const REMOTE_RATE_LIMIT = 10;

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
  'base-url': { type: 'string', option: 'baseUrl', env: 'CONFORMANCE_BASE_URL', help: 'target base URL (default: start the embedded reference server)' },
  token: { type: 'string', option: 'token', env: 'CONFORMANCE_TOKEN', help: 'static bearer token' },
  'auth-url': { type: 'string', option: 'clientCredentials.tokenUrl', env: 'CONFORMANCE_AUTH_URL', help: 'OAuth 2 token endpoint (client credentials grant)' },
  'client-id': { type: 'string', option: 'clientCredentials.clientId', env: 'CONFORMANCE_CLIENT_ID', help: 'OAuth 2 client id' },
  'client-secret': { type: 'string', option: 'clientCredentials.clientSecret', env: 'CONFORMANCE_CLIENT_SECRET', help: 'OAuth 2 client secret' },
  scope: { type: 'string', option: 'clientCredentials.scope', env: 'CONFORMANCE_SCOPE', help: 'OAuth 2 scopes, space separated' },
  'fiat-account-id': {
    type: 'string',
    option: 'fiatAccountIds',
    multiple: true,
    env: 'CONFORMANCE_FIAT_ACCOUNT_IDS',
    help: 'an existing fiat account id of the target (repeat, or comma-separated in the env)',
  },
  seed: {
    type: 'string',
    option: 'seed',
    env: 'CONFORMANCE_SEED',
    help: 'seed of the run; the same seed regenerates the same cases (default: random, printed; an empty CONFORMANCE_SEED counts as unset, an empty --seed is an error)',
  },
  profile: { type: 'string', option: 'profile', env: 'CONFORMANCE_PROFILE', help: profileHelp() },
  runs: { type: 'string', option: 'runs', env: 'CONFORMANCE_RUNS', help: 'random cases per rule, overriding the profile' },
  'report-dir': { type: 'string', option: 'reportDir', env: 'CONFORMANCE_REPORT_DIR', help: 'where the reports go (default: reports)' },
  strict: { type: 'boolean', option: 'strict', env: 'CONFORMANCE_STRICT', help: 'a failed convention rule also fails the run' },
  'fail-fast': {
    type: 'boolean',
    option: 'failFast',
    env: 'CONFORMANCE_FAIL_FAST',
    help: 'end the run at the first failure of a documented rule (any rule, with --strict); the reports are written, exit 1',
  },
  'no-restore': {
    type: 'boolean',
    option: 'noRestore',
    env: 'CONFORMANCE_NO_RESTORE',
    help: 'leave the fiat accounts as the run last wrote them (by default they are read before the run and what differs is written back at its end)',
  },
  'read-with-empty-update': {
    type: 'boolean',
    option: 'readWithEmptyUpdate',
    env: 'CONFORMANCE_READ_WITH_EMPTY_UPDATE',
    help: 'read the fiat accounts with an empty update (PUT {}) when the target answers no GET of them; on a target whose PUT replaces the record this wipes the account before the journal is written, so only for targets known to keep what an update does not send',
  },
  'restore-patience': {
    type: 'string',
    option: 'restorePatience',
    env: 'CONFORMANCE_RESTORE_PATIENCE',
    help: 'seconds each request of the restore is tried again while the target is away (429, 5xx, timeouts, resets; Retry-After honoured) (default 60)',
  },
  lifetime: {
    type: 'string',
    option: 'lifetime',
    env: 'CONFORMANCE_LIFETIME',
    help: "also repeat the run's first ref_ids this long after their creation (e.g. 30s, 5m, 1h; a ref_id has no time window, sections 4.2 and 8): the run waits at its end until they are that old, so it lasts at least that long, and sends 2 more requests (`conformance plan` shows them) (default: off)",
  },
  state: {
    type: 'string',
    option: 'state',
    env: 'CONFORMANCE_STATE',
    help: 'a file kept between runs (a CI cache) with the identities earlier runs created on this target for this API user (keyed by a digest of the client id or token, never the secret): the run repeats 3 of their ref_ids, expecting a refusal or the same identity with its data, then adds its own (the newest 48 kept); needs --base-url',
  },
  timeout: { type: 'string', option: 'timeoutMs', env: 'CONFORMANCE_TIMEOUT_MS', help: 'per-request timeout in ms (default 10000)' },
  'rate-limit': {
    type: 'string',
    option: 'rateLimit',
    env: 'CONFORMANCE_RATE_LIMIT',
    help: `requests per second; 0 = unlimited (default: unlimited on loopback, ${REMOTE_RATE_LIMIT} for remote targets)`,
  },
  concurrency: {
    type: 'string',
    option: 'concurrency',
    env: 'CONFORMANCE_CONCURRENCY',
    help: 'requests in flight at most: cases are sent ahead and judged in order, the updates of one fiat account one at a time, so a seed gives the same verdict at any concurrency (default 8)',
  },
  'max-retries': { type: 'string', option: 'maxRetries', env: 'CONFORMANCE_MAX_RETRIES', help: 'retries of a 429 answer, honouring Retry-After (default 3)' },
  'max-requests': {
    type: 'string',
    option: 'maxRequests',
    env: 'CONFORMANCE_MAX_REQUESTS',
    help: 'a hard cap on the requests sent to the target (retries, the reachability check and shrinking included): fewer random cases first, then scenarios, then fixed cases; rules left short are inconclusive and say why (default: no cap; `conformance plan` shows what fits)',
  },
  shard: {
    type: 'string',
    option: 'shard',
    env: 'CONFORMANCE_SHARD',
    help: 'i/n: run the i-th of n deterministic shares of the cases (same seed and profile on every shard), then `conformance merge` the n reports for the verdict',
  },
  rule: {
    type: 'string',
    option: 'rules',
    multiple: true,
    env: 'CONFORMANCE_RULES',
    help: 'only rules whose id starts with this (repeat, or comma-separated in the env), e.g. fa.metadata',
  },
  fault: { type: 'string', option: 'fault', env: 'CONFORMANCE_FAULT', help: 'embedded server only: inject this fault (see `conformance serve --list-faults`)' },
  reading: {
    type: 'string',
    option: 'reading',
    multiple: true,
    env: 'CONFORMANCE_READING',
    help: 'embedded server only: a reading, e.g. placement=top, reject-status=422 (repeatable)',
  },
  bundle: {
    type: 'string',
    option: 'bundle',
    env: 'CONFORMANCE_BUNDLE',
    help: 'also write the evidence bundle (.tar.gz: the reports, exchanges.har, a manifest with every SHA-256, an in-toto test-result attestation) to this file, whatever the verdict, and the attestation beside it (FILE less .tar.gz, plus .intoto.jsonl); check it with `conformance verify`',
  },
  'sign-key': {
    type: 'string',
    option: 'signKey',
    env: 'CONFORMANCE_SIGN_KEY',
    help: 'with --bundle: sign its manifest and its attestation with this Ed25519 private key (PEM; `conformance keygen` makes a pair); without it the bundle says it is unsigned',
  },
  'redact-personal': {
    type: 'boolean',
    option: 'redactPersonal',
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
} as const satisfies Record<string, { type: 'string' | 'boolean'; multiple?: boolean; env?: string; option?: string; short?: string; help: string }>;

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

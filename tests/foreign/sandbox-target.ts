/**
 * A foreign target that behaves as real vendor sandboxes do, for proving that the harness is a
 * careful guest (issue 29): fiat accounts shaped as the document's sample (client metadata at the
 * top level, the instructions' own metadata with an integer counter inside
 * fiat_account_owner.fiat_network_instructions), a GET that may be missing, PUT semantics by option
 * (sandbox-account.ts: patch or replace, metadata replaced or merged, deletes, blanks ignored, a
 * masked account number, a review that moves the status), a minimal identity create, and faults a
 * test injects at run time (sandbox-faults.ts: 500, 429, hang, reset, a restart of the listener).
 * Written apart from src/server (no shared code): it is a second reading of the document.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_RULES, applyUpdate, render, sampleWire, type JsonObject, type SandboxAccount, type UpdateRules } from './sandbox-account.ts';
import { FaultBook, RequestCounter, type FaultRule, type InjectedFault, type SandboxFault, type SandboxRequest } from './sandbox-faults.ts';
import { SandboxIdentities, type Answer } from './sandbox-identities.ts';

export type { FaultRule, InjectedFault, SandboxFault, SandboxRequest } from './sandbox-faults.ts';
export type { Metadata, SandboxAccount } from './sandbox-account.ts';

/** A seeded account: what it leaves out comes from the default seed (sample wire, owner Jane Doe, one client pair, the sample's instruction metadata, APPROVED). */
export type SandboxSeed = Partial<Omit<SandboxAccount, 'created_at' | 'updated_at'>>;

export interface SandboxOptions extends Partial<UpdateRules> {
  /** The static bearer token (default a random UUID); a request without it is 401. */
  token?: string;
  /** How many default accounts, or the seeds (default 2). */
  accounts?: number | SandboxSeed[];
  /** Where status and the instructions sit in an answer: as the sample (inside fiat_account_owner) or at the top level (default sample). */
  placement?: 'sample' | 'top';
  /** GET /v2/transfer/fiat-accounts/{id} answers the account (default true). */
  get?: boolean;
  /** Without the GET route, what a GET gets: 405 (Allow: PUT) or 404 (default 405). */
  getMissing?: 404 | 405;
  /** The default seeds also hold an integer client pair (`priority: 3`). */
  integerClientValue?: boolean;
  /** Faults in force from the start (more with inject()). */
  faults?: FaultRule[];
}

/** One request as the sandbox saw it; `status` is what it answered (absent for a hang, a reset or a restart). */
export interface SandboxLogEntry {
  method: string;
  path: string;
  accountId?: string;
  nth: number;
  status?: number;
  fault?: SandboxFault;
}

export type RequestListener = (req: SandboxRequest) => void | Promise<void>;

export interface SandboxTarget {
  baseUrl: string;
  token: string;
  accountIds: string[];
  /** A deep copy of the stored account (unmasked, placement-free). */
  snapshot(id: string): SandboxAccount;
  /** The account as a GET would answer it now. */
  answer(id: string): JsonObject;
  /** Changes an account behind the harness's back (another user of the sandbox); a key set to undefined is cleared. updated_at moves unless given. */
  set(id: string, change: Partial<Omit<SandboxAccount, 'id'>>): void;
  /** A fault from now on, after those already in force. */
  inject(rule: FaultRule): InjectedFault;
  /** Called for every request before it is handled (and awaited); returns the unsubscribe. */
  onRequest(listener: RequestListener): () => void;
  /** Every request, in arrival order. */
  readonly log: readonly SandboxLogEntry[];
  /** The identities created (copies). */
  identities(): Record<string, unknown>[];
  /** Stops listening and ends every connection, hanging requests included. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const ACCOUNT_PATH = /^\/v2\/transfer\/fiat-accounts\/([^/]+)$/;
const IDENTITIES_PATH = '/v2/identity/identities';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const error = (status: number, message: string, headers: Record<string, string> = {}): Answer & { headers: Record<string, string> } => ({
  status,
  body: { error: status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : 'bad_request', message },
  headers,
});

/** A clock whose readings only go forward, so updated_at moves on every update, even within a millisecond. */
function forwardClock(): () => string {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
}

function seedAccounts(options: SandboxOptions, now: string): Map<string, SandboxAccount> {
  const seeds = typeof options.accounts === 'object' ? options.accounts : Array.from({ length: options.accounts ?? 2 }, () => ({}));
  const accounts = new Map<string, SandboxAccount>();
  seeds.forEach((seed, i) => {
    const account: SandboxAccount = {
      id: randomUUID(),
      status: 'APPROVED',
      first_name: 'Jane',
      last_name: 'Doe',
      metadata: { cost_center: `cc-${i + 1}`, ...(options.integerClientValue ? { priority: 3 } : {}) },
      instruction_metadata: { source: 'sample', attempt: 1 },
      wire: sampleWire(`0001234567${String(i).padStart(2, '0')}`),
      ...structuredClone(seed),
      created_at: now,
      updated_at: now,
    };
    accounts.set(account.id, account);
  });
  return accounts;
}

function parseJson(raw: Buffer): unknown {
  if (!raw.length) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function startSandboxTarget(options: SandboxOptions = {}): Promise<SandboxTarget> {
  const rules: UpdateRules = { ...DEFAULT_RULES, ...Object.fromEntries(Object.entries(options).filter(([k, v]) => k in DEFAULT_RULES && v !== undefined)) };
  const token = options.token ?? randomUUID();
  const placement = options.placement ?? 'sample';
  const now = forwardClock();
  const accounts = seedAccounts(options, now());
  const identities = new SandboxIdentities();
  const faults = new FaultBook();
  for (const rule of options.faults ?? []) faults.add(rule);
  const counter = new RequestCounter();
  const listeners = new Set<RequestListener>();
  const log: SandboxLogEntry[] = [];
  const sockets = new Set<Socket>();
  let closed = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const account = (id: string) => {
    const found = accounts.get(id);
    if (!found) throw new Error(`the sandbox has no fiat account ${id}`);
    return found;
  };

  /** The answer to a request that no fault stops; a PUT that is accepted is stored. */
  function handle(req: http.IncomingMessage, raw: Buffer, info: SandboxRequest): Answer & { headers?: Record<string, string> } {
    if (req.headers.authorization !== `Bearer ${token}`) return error(401, 'a valid bearer token is required', { 'www-authenticate': 'Bearer' });
    if (info.accountId !== undefined) {
      const allow = options.get === false ? 'PUT' : 'GET, PUT';
      if (info.method === 'GET' && options.get === false)
        return (options.getMissing ?? 405) === 405 ? error(405, 'GET is not allowed here', { allow }) : error(404, 'no such route');
      if (info.method !== 'GET' && info.method !== 'PUT') return error(405, `${info.method} is not allowed here`, { allow });
      const stored = UUID.test(info.accountId) ? accounts.get(info.accountId) : undefined;
      if (!stored) return error(404, 'fiat account not found');
      if (info.method === 'GET') return { status: 200, body: render(stored, placement, rules.mask) };
      if (info.body === undefined) return error(400, raw.length ? 'the body is not JSON' : 'a JSON body is required');
      const outcome = applyUpdate(stored, info.body, rules, now());
      if ('refused' in outcome) return error(400, outcome.refused);
      accounts.set(stored.id, outcome.account);
      return { status: 200, body: render(outcome.account, placement, rules.mask) };
    }
    if (info.path === IDENTITIES_PATH) {
      if (info.method !== 'POST') return error(405, `${info.method} is not allowed here`, { allow: 'POST' });
      if (info.body === undefined) return error(400, raw.length ? 'the body is not JSON' : 'a JSON body is required');
      return identities.create(token, info.body, now());
    }
    return error(404, 'no such route');
  }

  function send(res: http.ServerResponse, answer: Answer & { headers?: Record<string, string> }, entry: SandboxLogEntry): void {
    entry.status = answer.status;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  function deliver(rule: FaultRule, req: http.IncomingMessage, res: http.ServerResponse, entry: SandboxLogEntry): void {
    entry.fault = rule.fault;
    const retryAfter: Record<string, string> = rule.retryAfterSeconds !== undefined ? { 'retry-after': String(rule.retryAfterSeconds) } : {};
    if (rule.fault === '500') send(res, error(500, 'internal error'), entry);
    else if (rule.fault === '429') send(res, { status: 429, body: { error: 'too_many_requests', message: 'slow down' }, headers: retryAfter }, entry);
    else if (rule.fault === 'reset') req.socket.destroy();
    else if (rule.fault === 'restart') restart(rule.restartMs ?? 1000);
    // hang: no answer; close() (or a restart) ends the connection.
  }

  /** Away for `ms`: the listener closed, every connection ended; then listening again on the same port, state kept. */
  function restart(ms: number): void {
    if (restartTimer || closed) return;
    server.close();
    for (const socket of sockets) socket.destroy();
    restartTimer = setTimeout(function listenAgain() {
      restartTimer = undefined;
      if (!closed) server.listen(port, HOST);
    }, ms);
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client went away before its body arrived
    }
    const raw = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const match = ACCOUNT_PATH.exec(path);
    let accountId: string | undefined;
    try {
      accountId = match ? decodeURIComponent(match[1]) : undefined;
    } catch {
      accountId = match?.[1];
    }
    const info: SandboxRequest = {
      method,
      path,
      ...(accountId !== undefined ? { accountId } : {}),
      body: parseJson(raw),
      nth: counter.next(method, accountId, path),
    };
    const entry: SandboxLogEntry = { method, path, ...(accountId !== undefined ? { accountId } : {}), nth: info.nth };
    log.push(entry);
    for (const listener of [...listeners]) await listener(info);
    if (closed) return;
    const rule = faults.take(info);
    if (rule && !rule.afterApply) return deliver(rule, req, res, entry);
    const answer = handle(req, raw, info);
    if (rule) return deliver(rule, req, res, entry);
    send(res, answer, entry);
  }

  const server = http.createServer((req, res) => void serve(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Listening again after a restart can find the port not yet free: try again shortly.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE' && !closed) restartTimer = setTimeout(() => ((restartTimer = undefined), closed || server.listen(port, HOST)), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://${HOST}:${port}`,
    token,
    accountIds: [...accounts.keys()],
    snapshot: (id) => structuredClone(account(id)),
    answer: (id) => render(account(id), placement, rules.mask),
    set(id, change) {
      const next = account(id) as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete next[key];
        else next[key] = structuredClone(value);
      }
      if (change.updated_at === undefined) next.updated_at = now();
    },
    inject: (rule) => faults.add(rule),
    onRequest(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    log,
    identities: () => identities.list(),
    close: async () => {
      closed = true;
      clearTimeout(restartTimer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}

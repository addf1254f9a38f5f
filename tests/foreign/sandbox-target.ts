/**
 * A foreign target that behaves as real vendor sandboxes do, for proving that the harness is a
 * careful guest (issue 29): fiat accounts shaped as the document's sample (client metadata at the
 * top level, the instructions' own metadata with an integer counter inside
 * fiat_account_owner.fiat_network_instructions), a GET that may be missing, PUT semantics by option
 * (sandbox-account.ts: patch or replace, metadata replaced or merged, deletes, blanks ignored, a
 * masked account number, a review that moves the status), a minimal identity create
 * (sandbox-routes.ts answers all that), and faults a test injects at run time (sandbox-faults.ts:
 * 500, 429, hang, reset, a restart of the listener).
 * Written apart from src/server (no shared code): it is a second reading of the document.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JsonObject, SandboxAccount } from './sandbox-account.ts';
import { FaultBook, RequestCounter, type FaultRule, type InjectedFault, type SandboxFault, type SandboxRequest } from './sandbox-faults.ts';
import { SandboxRoutes, error, type HttpAnswer, type RouteOptions } from './sandbox-routes.ts';

export type { FaultRule, InjectedFault, SandboxFault, SandboxRequest } from './sandbox-faults.ts';
export type { Metadata, SandboxAccount } from './sandbox-account.ts';

export type { SandboxSeed } from './sandbox-routes.ts';

export interface SandboxOptions extends RouteOptions {
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
  /**
   * Called for every request before it is handled, and awaited: a test sends a signal at a phase
   * this way, or holds the answer back (a slow target). Returns the unsubscribe.
   */
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

function parseJson(raw: Buffer): unknown {
  if (!raw.length) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function startSandboxTarget(options: SandboxOptions = {}): Promise<SandboxTarget> {
  const routes = new SandboxRoutes(options);
  const wire = new SandboxWire(routes, options.faults ?? []);
  const baseUrl = await wire.listen();
  return {
    baseUrl,
    token: routes.token,
    accountIds: routes.accountIds,
    snapshot: (id) => structuredClone(routes.account(id)),
    answer: (id) => routes.view(id),
    set: (id, change) => routes.set(id, change),
    inject: (rule) => wire.faults.add(rule),
    onRequest(listener) {
      wire.listeners.add(listener);
      return () => wire.listeners.delete(listener);
    },
    log: wire.log,
    identities: () => routes.identities.list(),
    close: () => wire.close(),
  };
}

/** The HTTP side: requests counted, logged, heard by the listeners, hit by faults, and otherwise answered by the routes. */
class SandboxWire {
  readonly faults = new FaultBook();
  readonly listeners = new Set<RequestListener>();
  readonly log: SandboxLogEntry[] = [];
  private readonly counter = new RequestCounter();
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => void this.serve(req, res));
  private port = 0;
  private closed = false;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly routes: SandboxRoutes,
    rules: FaultRule[],
  ) {
    for (const rule of rules) this.faults.add(rule);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    // Listening again after a restart can find the port not yet free: try again shortly.
    this.server.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE' && !this.closed) this.listenAgainIn(50);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, HOST, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://${HOST}:${this.port}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client went away before its body arrived
    }
    const raw = Buffer.concat(chunks);
    const info = this.describe(req, raw);
    const entry: SandboxLogEntry = {
      method: info.method,
      path: info.path,
      ...(info.accountId !== undefined ? { accountId: info.accountId } : {}),
      nth: info.nth,
    };
    this.log.push(entry);
    for (const listener of [...this.listeners]) await listener(info);
    if (this.closed) return;
    const rule = this.faults.take(info);
    if (rule && !rule.afterApply) return this.deliver(rule, req, res, entry);
    const answer = this.routes.answer(req.headers.authorization, info, raw);
    if (rule) return this.deliver(rule, req, res, entry);
    this.send(res, answer, entry);
  }

  /** The request as rules and listeners see it, counted. */
  private describe(req: http.IncomingMessage, raw: Buffer): SandboxRequest {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const match = ACCOUNT_PATH.exec(path);
    let accountId: string | undefined;
    try {
      accountId = match ? decodeURIComponent(match[1]) : undefined;
    } catch {
      accountId = match?.[1];
    }
    return { method, path, ...(accountId !== undefined ? { accountId } : {}), body: parseJson(raw), nth: this.counter.next(method, accountId, path) };
  }

  private send(res: http.ServerResponse, answer: HttpAnswer, entry: SandboxLogEntry): void {
    entry.status = answer.status;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  private deliver(rule: FaultRule, req: http.IncomingMessage, res: http.ServerResponse, entry: SandboxLogEntry): void {
    entry.fault = rule.fault;
    const retryAfter: Record<string, string> = rule.retryAfterSeconds !== undefined ? { 'retry-after': String(rule.retryAfterSeconds) } : {};
    if (rule.fault === '500') this.send(res, error(500, 'internal error'), entry);
    else if (rule.fault === '429') this.send(res, { status: 429, body: { error: 'too_many_requests', message: 'slow down' }, headers: retryAfter }, entry);
    else if (rule.fault === 'reset') req.socket.destroy();
    else if (rule.fault === 'restart') this.restart(rule.restartMs ?? 1000);
    // hang: no answer; close() (or a restart) ends the connection.
  }

  /** Away for `ms`: the listener closed, every connection ended; then listening again on the same port, state kept. */
  private restart(ms: number): void {
    if (this.restartTimer || this.closed) return;
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.listenAgainIn(ms);
  }

  private listenAgainIn(ms: number): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.closed) this.server.listen(this.port, HOST);
    }, ms);
  }
}

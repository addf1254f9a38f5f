/**
 * The embedded reference server: the two operations of the API document over node:http, in
 * memory, with OAuth 2 client credentials. It reads the document faithfully, in any of the
 * readings the document allows (reading.ts), or with one fault injected (faults.ts); the strict
 * variant also restricts the points the document leaves open (strict-open-points.ts).
 */
import { MIN_ACCOUNTS } from './seeded-accounts.ts';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAuthenticator, type Authenticator } from './auth.ts';
import { FAITHFUL, type Operation, type ServerBehaviour } from './behaviour.ts';
import { behaviourFor } from './deviations.ts';
import type { FaultName } from './faults.ts';
import { seedFiatAccounts, type FiatAccountRecord } from './fiat-account-store.ts';
import { handleFiatAccountUpdate } from './fiat-account-update.ts';
import { handleFiatAccountGet } from './fiat-account-get.ts';
import { decodeUtf8 } from './json-body.ts';
import { discardRest, readRequestBody } from './http-io.ts';
import { handleIdentityCreate } from './identity-create.ts';
import { IdentityStore } from './identity-store.ts';
import { sendProblem } from './problem.ts';
import { DEFAULT_READING, type Reading } from './reading.ts';

export interface ReferenceServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Choices where the document allows several; unset keys take DEFAULT_READING's. */
  reading?: Partial<Reading>;
  /** One defect to inject; none by default. */
  fault?: FaultName;
  /** More defects at once (in-process only: a report with many failures, tests/browser); `fault` is the one a report names. */
  moreFaults?: readonly FaultName[];
  /** Restrict the open points as the vendor's OpenAPI does (strict-open-points.ts); default false. */
  strict?: boolean;
  /** Seeded fiat accounts; default (and at least) 3. */
  accounts?: number;
  /** Answer GET on a fiat account's path with the account (the get operation section 1 names); default true. False: 405, as a target without it. */
  accountReads?: boolean;
}

export interface ReferenceServer {
  /** http://HOST:PORT, without a trailing slash. */
  baseUrl: string;
  /** `${baseUrl}/oauth/token` */
  tokenUrl: string;
  /** This server's own throwaway credentials, random per server. */
  clientId: string;
  clientSecret: string;
  staticToken: string;
  /** Seeded accounts (UUID v4) that updates may target. */
  fiatAccountIds: string[];
  reading: Reading;
  fault?: FaultName;
  /** The strict variant: the open points restricted. */
  strict: boolean;
  /** Stops listening and closes idle keep-alive connections too. */
  close(): Promise<void>;
}

/** Where the server issues its OAuth 2 tokens, under its base URL. */
export const TOKEN_PATH = '/oauth/token';

/** The routes of the document plus the token endpoint. */
type Route = { kind: 'token' } | { kind: 'fiat-account'; id: string } | { kind: 'identities' } | { kind: 'unknown' };

const ALLOWED_METHOD: Record<Exclude<Route['kind'], 'unknown'>, string> = { token: 'POST', 'fiat-account': 'PUT', identities: 'POST' };
const OPERATION_OF: Partial<Record<Route['kind'], Operation>> = { 'fiat-account': 'updateFiatAccount', identities: 'createIdentity' };

function routeOf(pathname: string): Route {
  if (pathname === TOKEN_PATH) return { kind: 'token' };
  if (pathname === '/v2/identity/identities') return { kind: 'identities' };
  const account = /^\/v2\/transfer\/fiat-accounts\/([^/]+)$/.exec(pathname);
  if (account) {
    try {
      return { kind: 'fiat-account', id: decodeURIComponent(account[1]) };
    } catch {
      return { kind: 'fiat-account', id: account[1] }; // not a UUID either: refused as malformed
    }
  }
  return { kind: 'unknown' };
}

interface ServerState {
  reading: Reading;
  strict: boolean;
  behaviour: ServerBehaviour;
  auth: Authenticator;
  accounts: Map<string, FiatAccountRecord>;
  identities: IdentityStore;
  accountReads: boolean;
}

export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const reading: Reading = { ...DEFAULT_READING, ...options.reading };
  const behaviour = behaviourFor(options.fault, options.moreFaults);
  const seeded = seedFiatAccounts(Math.max(MIN_ACCOUNTS, options.accounts ?? MIN_ACCOUNTS), Date.now(), behaviour.seedsAccountsAtStart);
  const state: ServerState = {
    reading,
    strict: options.strict ?? false,
    behaviour,
    auth: createAuthenticator(),
    accounts: new Map(seeded.map((a) => [a.id, a])),
    // A 409 for a repeated ref_id names only the first identity's id: no need to keep the rest.
    identities: new IdentityStore(reading.duplicateRefId === 'same' || behaviour.duplicateResponse !== FAITHFUL.duplicateResponse, behaviour.refIdIndex),
    accountReads: options.accountReads ?? true,
  };

  // Every socket, so that a server that dies (a fault) can take them all down at once.
  const sockets = new Set<Socket>();
  let received = 0;
  let dead = false;
  const die = () => {
    dead = true;
    for (const socket of sockets) socket.destroy();
    server.close();
  };

  const server = http.createServer((req, res) => {
    received += 1;
    if (dead || received > state.behaviour.diesAfterRequests) {
      // Like a crashed process: no answer, every connection reset, no new ones taken.
      if (!dead) die();
      req.socket.destroy();
      return;
    }
    handle(state, req, res).catch(() => {
      // Never a crash: an unexpected error becomes a 500 (no detail: it could echo input).
      if (!res.headersSent) sendProblem(res, 500, 'internal error');
      else res.destroy();
    });
  });
  // Longer than a client's idle keep-alive (Node's agent drops an idle socket at 5 s, undici at 4 s):
  // at Node's default, also 5 s, a client could reuse a socket the server was closing that very
  // moment, and the request then fails with ECONNRESET, a false failure of the target.
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket: Socket) => {
    if (dead) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    baseUrl,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    clientId: state.auth.clientId,
    clientSecret: state.auth.clientSecret,
    staticToken: state.auth.staticToken,
    fiatAccountIds: seeded.map((a) => a.id),
    reading,
    ...(options.fault ? { fault: options.fault } : {}),
    strict: state.strict,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A server that died has closed its listener already: closing it again is no error.
        server.close((error) => (error && !dead ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

/**
 * A request labelled JSON that has no body at all: neither Content-Length nor Transfer-Encoding
 * (RFC 9112 section 6.3: its body is empty), what curl -X PUT -H 'Content-Type: application/json' sends.
 */
const isBodylessJson = (req: IncomingMessage): boolean =>
  req.headers['content-length'] === undefined &&
  req.headers['transfer-encoding'] === undefined &&
  /^application\/json\b/i.test(req.headers['content-type'] ?? '');

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readRequestBody(req);
  if (body.kind === 'too-large') {
    sendProblem(res, 413, 'the request body is larger than 1 MiB', { headers: { connection: 'close' } });
    discardRest(req);
    return;
  }
  let pathname: string;
  try {
    pathname = new URL(req.url ?? '/', 'http://embedded').pathname;
  } catch {
    sendProblem(res, 400, 'the request target is not a valid path');
    return;
  }
  const route = routeOf(pathname);
  const method = req.method ?? 'GET';
  const routed = OPERATION_OF[route.kind];
  // Another method on an operation's path is refused with 405, unless a fault handles it.
  const otherMethod = routed && method !== ALLOWED_METHOD[route.kind as keyof typeof ALLOWED_METHOD] ? state.behaviour.otherMethod(routed, method) : undefined;
  const operation = otherMethod !== 'refuse' ? routed : undefined;

  if (route.kind === 'token') {
    if (method !== 'POST') return sendProblem(res, 405, 'the token endpoint takes POST', { headers: { allow: 'POST' } });
    state.auth.handleTokenRequest(req, decodeUtf8(body.bytes) ?? '', res);
    return;
  }
  if (pathname !== '/v2' && !pathname.startsWith('/v2/')) return sendProblem(res, 404, `no route ${pathname}`);

  // Section 5: every /v2 request carries a bearer token, checked before anything else.
  const header = req.headers.authorization;
  const bearer = state.auth.checkBearer(header);
  let owner = state.auth.clientId;
  // ref_ids are unique per API user (the client); a fault keys them by the access token instead.
  if (bearer.kind === 'valid') owner = state.behaviour.refIdScope === 'access-token' ? `${bearer.owner}\u0000${bearer.grant}` : bearer.owner;
  else if (operation && header !== undefined && state.behaviour.acceptsAuthorization(operation, header)) {
    // A fault lets these credentials through: the request counts as the one client's.
  } else if (bearer.kind === 'invalid' || !operation || state.behaviour.requiresAuthorization(operation)) {
    const status = bearer.kind === 'invalid' && operation ? state.behaviour.wrongTokenStatus(operation) : 401;
    const bearerChallenge = bearer.kind === 'invalid' ? 'Bearer realm="conformance-embedded", error="invalid_token"' : 'Bearer realm="conformance-embedded"';
    const challenge = status === 401 ? state.behaviour.authChallenge(operation, bearerChallenge) : undefined;
    return sendProblem(res, status, bearer.kind === 'invalid' ? 'the bearer token is not valid' : 'the Authorization header with a bearer token is missing', {
      headers: challenge !== undefined ? { 'www-authenticate': challenge } : {},
    });
  }

  if (route.kind === 'unknown') return sendProblem(res, 404, `no route ${pathname}`);
  if (route.kind === 'fiat-account' && method === 'GET' && otherMethod === 'refuse' && state.accountReads)
    return handleFiatAccountGet(state.accounts, route.id, { reading: state.reading, behaviour: state.behaviour, strict: state.strict, owner }, res);
  const allow = route.kind === 'fiat-account' && state.accountReads ? 'GET, PUT' : ALLOWED_METHOD[route.kind];
  if (!operation) return sendProblem(res, 405, `${pathname} takes ${allow}`, { headers: { allow } });
  if (otherMethod === 'fail') return sendProblem(res, 500, 'internal error');
  if (isBodylessJson(req) && state.behaviour.bodylessJson(operation) === 'fail') return sendProblem(res, 500, 'internal error');
  if (state.behaviour.dropsConnection(operation, decodeUtf8(body.bytes) ?? '')) {
    req.socket.destroy();
    return;
  }
  const context = { reading: state.reading, behaviour: state.behaviour, strict: state.strict, owner };
  if (route.kind === 'fiat-account') return handleFiatAccountUpdate(state.accounts, route.id, body.bytes, context, res);
  return handleIdentityCreate(state.identities, body.bytes, context, res);
}

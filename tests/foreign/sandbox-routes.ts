/**
 * What the sandbox target answers, faults aside: the fiat accounts (GET, PUT by the update rules of
 * sandbox-account.ts), the identity create, bearer auth with a static token, and the test's own
 * view of the accounts (snapshot, set).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_RULES, applyUpdate, render, sampleWire, type JsonObject, type SandboxAccount, type UpdateRules } from './sandbox-account.ts';
import type { SandboxRequest } from './sandbox-faults.ts';
import { SandboxIdentities, type Answer } from './sandbox-identities.ts';

/** A seeded account: what it leaves out comes from the default seed (sample wire, owner Jane Doe, one client pair, the sample's instruction metadata, APPROVED). */
export type SandboxSeed = Partial<Omit<SandboxAccount, 'created_at' | 'updated_at'>>;

/** How the sandbox answers; the update rules (UpdateRules) are options too. */
export interface RouteOptions extends Partial<UpdateRules> {
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
}

export type HttpAnswer = Answer & { headers?: Record<string, string> };

const IDENTITIES_PATH = '/v2/identity/identities';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const error = (status: number, message: string, headers: Record<string, string> = {}): HttpAnswer => ({
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

function seedAccounts(options: RouteOptions, now: string): Map<string, SandboxAccount> {
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

export class SandboxRoutes {
  readonly token: string;
  private readonly rules: UpdateRules;
  private readonly placement: 'sample' | 'top';
  readonly now = forwardClock();
  private readonly accounts: Map<string, SandboxAccount>;
  readonly identities = new SandboxIdentities();

  constructor(private readonly options: RouteOptions) {
    this.rules = { ...DEFAULT_RULES, ...Object.fromEntries(Object.entries(options).filter(([k, v]) => k in DEFAULT_RULES && v !== undefined)) };
    this.token = options.token ?? randomUUID();
    this.placement = options.placement ?? 'sample';
    this.accounts = seedAccounts(options, this.now());
  }

  get accountIds(): string[] {
    return [...this.accounts.keys()];
  }

  /** The stored account; a test naming an unknown one is a mistake of the test. */
  account(id: string): SandboxAccount {
    const found = this.accounts.get(id);
    if (!found) throw new Error(`the sandbox has no fiat account ${id}`);
    return found;
  }

  /** The account as a GET answers it. */
  view(id: string): JsonObject {
    return render(this.account(id), this.placement, this.rules.mask);
  }

  /** A change behind the harness's back: a key set to undefined is cleared; updated_at moves unless given. */
  set(id: string, change: Partial<Omit<SandboxAccount, 'id'>>): void {
    const next = this.account(id) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete next[key];
      else next[key] = structuredClone(value);
    }
    if (change.updated_at === undefined) next.updated_at = this.now();
  }

  /** The answer to a request no fault stops (`raw` its body as sent); an accepted PUT or create is stored. */
  answer(authorization: string | undefined, info: SandboxRequest, raw: Buffer): HttpAnswer {
    if (authorization !== `Bearer ${this.token}`) return error(401, 'a valid bearer token is required', { 'www-authenticate': 'Bearer' });
    const unparsed = () => error(400, raw.length ? 'the body is not JSON' : 'a JSON body is required');
    if (info.accountId !== undefined) return this.accountAnswer(info.method, info.accountId, info.body) ?? unparsed();
    if (info.path !== IDENTITIES_PATH) return error(404, 'no such route');
    if (info.method !== 'POST') return error(405, `${info.method} is not allowed here`, { allow: 'POST' });
    return info.body === undefined ? unparsed() : this.identities.create(this.token, info.body, this.now());
  }

  /** GET or PUT of one account; undefined for a PUT whose body is not JSON. */
  private accountAnswer(method: string, id: string, body: unknown): HttpAnswer | undefined {
    const withGet = this.options.get !== false;
    const allow = withGet ? 'GET, PUT' : 'PUT';
    if (method === 'GET' && !withGet)
      return (this.options.getMissing ?? 405) === 405 ? error(405, 'GET is not allowed here', { allow }) : error(404, 'no such route');
    if (method !== 'GET' && method !== 'PUT') return error(405, `${method} is not allowed here`, { allow });
    const stored = UUID.test(id) ? this.accounts.get(id) : undefined;
    if (!stored) return error(404, 'fiat account not found');
    if (method === 'GET') return { status: 200, body: render(stored, this.placement, this.rules.mask) };
    if (body === undefined) return undefined;
    const outcome = applyUpdate(stored, body, this.rules, this.now());
    if ('refused' in outcome) return error(400, outcome.refused);
    this.accounts.set(stored.id, outcome.account);
    return { status: 200, body: render(outcome.account, this.placement, this.rules.mask) };
  }
}

/**
 * Faults a test injects into the sandbox target at run time: which request they hit (a predicate
 * over the request, with `nth` counting requests of one method to one account, so "the first GET
 * of account A" is the restore's start read) and how often.
 */

export type SandboxFault = '500' | '429' | 'hang' | 'reset' | 'restart';

/** What a fault rule (and an onRequest listener) sees of a request. */
export interface SandboxRequest {
  method: string;
  /** The path without its query. */
  path: string;
  /** The fiat account the path names, known to the sandbox or not. */
  accountId?: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  body: unknown;
  /** 1-based: this is the nth request of this method to this account (or to this path, for other paths). */
  nth: number;
}

export interface FaultRule {
  match: (req: SandboxRequest) => boolean;
  /**
   * 500 or 429: an error answer; hang: no answer until the server closes; reset: the socket
   * destroyed; restart: the listening socket and every connection closed for `restartMs`, then
   * listening again on the same port with the same state.
   */
  fault: SandboxFault;
  /** How many matching requests it hits (default 1); then they are served normally. */
  times?: number;
  /** 429: the Retry-After header's seconds. */
  retryAfterSeconds?: number;
  /** restart: how long the target is away (default 1000). */
  restartMs?: number;
  /** The request is applied before the fault (a 500 after storing, an answer lost after the write); otherwise it is not applied. */
  afterApply?: boolean;
}

/** A rule in force: how often it hit, and a way to take it out. */
export interface InjectedFault {
  readonly rule: FaultRule;
  readonly hits: number;
  readonly remaining: number;
  remove(): void;
}

/** The rules in force, in the order given: the first that matches and has hits left applies. */
export class FaultBook {
  private readonly entries: { rule: FaultRule; hits: number; removed: boolean }[] = [];

  add(rule: FaultRule): InjectedFault {
    const entry = { rule, hits: 0, removed: false };
    this.entries.push(entry);
    return {
      rule,
      get hits() {
        return entry.hits;
      },
      get remaining() {
        return entry.removed ? 0 : Math.max(0, (rule.times ?? 1) - entry.hits);
      },
      remove: () => {
        entry.removed = true;
      },
    };
  }

  /** The rule that hits `req` (counted as a hit), if any. */
  take(req: SandboxRequest): FaultRule | undefined {
    const entry = this.entries.find((e) => !e.removed && e.hits < (e.rule.times ?? 1) && e.rule.match(req));
    if (entry) entry.hits++;
    return entry?.rule;
  }
}

/** Counts requests by method and account (or path): the `nth` of a SandboxRequest. */
export class RequestCounter {
  private readonly counts = new Map<string, number>();

  next(method: string, accountId: string | undefined, path: string): number {
    const key = `${method} ${accountId !== undefined ? `account:${accountId}` : path}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }
}

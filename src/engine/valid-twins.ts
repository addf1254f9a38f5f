/**
 * Valid twins and their verdicts. A refused invalid or boundary case judges its rule only when
 * its valid twin is accepted: otherwise the target refuses something else (a name, every
 * request), and the twin's own refusal is the finding, under the rule of valid requests. A twin
 * is sent as soon as its case is refused (twin-requests.ts) and judged in the case's turn; a twin
 * asked before is not asked again (the fixed examples repeat twins).
 */
import type { TestCase } from '../core/case.ts';
import type { Exchange } from '../core/exchange.ts';
import { OPERATIONS } from '../core/operations.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';
import { twinDecides } from '../rules/rule-judge.ts';
import { inputKey } from './input-ids.ts';
import type { InputIds } from './input-ids.ts';
import { InputVerdicts } from './input-ids.ts';
import { TwinRequests } from './twin-requests.ts';

export interface TwinParts {
  /** The run's selected rule ids: a refused case of another rule asks no twin. */
  selectedIds: ReadonlySet<string>;
  inputIds: InputIds;
  send(c: TestCase): Promise<Exchange>;
  /** The twin ready to send: its account and ref_id. */
  prepare(twin: TestCase): TestCase;
  /** Twins shared with a family of another shard: judged here, counted there (shard.ts). */
  foreignTwins?: ReadonlySet<string>;
  markUncounted(c: TestCase): void;
  /** A refusal the target's merged metadata explains: the case keeps the benefit of that doubt. */
  refusalExplainedByMerge(exchange: Exchange): boolean;
  /**
   * Whether a twin cannot be sent, no account having room for its metadata (merged metadata), and
   * then whether the target is known to merge: sent, it would be refused for the keys held, which
   * gives the case the benefit of the doubt (refusalExplainedByMerge) at no request's cost.
   */
  withoutRoom?(twin: TestCase): { excused: boolean } | undefined;
}

export class ValidTwins {
  private readonly requests: TwinRequests;
  /** Whether a valid twin was accepted, by what it sent. */
  private readonly verdicts = new InputVerdicts();

  constructor(private readonly parts: TwinParts) {
    this.requests = new TwinRequests((c) => parts.inputIds.of(c.control!), parts.send);
  }

  /**
   * A case of a selected rule that the target refused: its rule is judged only if its twin is
   * accepted. An open case refused as a limit: the refusal is the target's limit only if its
   * guaranteed twin is accepted.
   */
  refusedWithTwin(c: TestCase, exchange: Exchange): boolean {
    const rule = c.open ? OPERATIONS[c.operation].validAcceptedRule : (c.violates ?? c.exercises);
    return c.control !== undefined && rule !== undefined && this.parts.selectedIds.has(rule) && twinDecides(exchange);
  }

  /** Starts the twin's request of a refused case at once, unless its verdict is known; `account`: the case's pool account. */
  startFor(c: TestCase, exchange: Exchange, account?: string): void {
    if (this.refusedWithTwin(c, exchange) && this.verdicts.get(this.parts.inputIds.of(c.control!)) === undefined && !this.roomless(c, account))
      this.requests.start(c, () => this.twinOf(c, account));
  }

  /** Whether `c` started a twin request that nobody has taken yet (it is then judged in the case's turn). */
  startedBy(c: TestCase): boolean {
    return this.requests.startedBy(c);
  }

  /**
   * Whether the twin of `c` is accepted: known, or asked now and judged with `judge` like any
   * other exchange (the caller's judge: a twin's refusal is a finding of its own).
   */
  async accepted(c: TestCase, account: string | undefined, judge: (twin: Exchange) => Promise<unknown>): Promise<boolean> {
    const key = this.parts.inputIds.of(c.control!);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    // A twin already under way is taken as it comes (room may have gone since it was sent).
    const roomless = this.requests.underWay(c) ? undefined : this.roomless(c, account);
    if (roomless) return roomless.excused;
    try {
      // A boundary twin has its own twin: on the same account, too.
      const exchange = await this.requests.answer(c, () => this.twinOf(c, account));
      await judge(exchange);
      // A target known to merge metadata may refuse the twin for the keys an account already
      // holds: the case keeps the benefit of that doubt. Any other refusal leaves it unjudged.
      const accepted = is2xx(exchange) || this.parts.refusalExplainedByMerge(exchange);
      // A twin that got no answer says nothing about the target: the next case that needs it asks again.
      if (exchange.response) this.verdicts.set(key, accepted);
      return accepted;
    } finally {
      this.requests.settle(c);
    }
  }

  /** Whether the twin of `c` cannot be sent for want of room on the accounts (withoutRoom). */
  private roomless(c: TestCase, account?: string): { excused: boolean } | undefined {
    const control = c.control!;
    return this.parts.withoutRoom?.(account && control.fiatAccountId === undefined ? { ...control, fiatAccountId: account } : control);
  }

  /** The twin of a case, ready to send: on the case's pool account when it has one. */
  private twinOf(c: TestCase, account?: string): TestCase {
    const control = c.control!;
    const twin = this.parts.prepare(account && control.fiatAccountId === undefined ? { ...control, fiatAccountId: account } : control);
    // A twin shared with a family of another shard counts there (shard.ts).
    if (this.parts.foreignTwins?.has(inputKey(control))) this.parts.markUncounted(twin);
    return twin;
  }
}

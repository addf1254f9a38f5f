/**
 * The one place that assigns fiat accounts to cases. An update that names no id goes to an
 * account of the user's pool:
 * - under replace (known after the probes), each planned case gets its family's next account in
 *   plan order, counted from where the family starts in the list of families, so a case's account
 *   does not depend on which other families run (--shard) and the updates of several accounts
 *   can be in flight at once;
 * - under merge (or while the semantics are unknown), when the case starts, the account where its
 *   metadata adds the fewest keys after every earlier update, a case that needs room built on the
 *   keys its account holds (MetadataState.place); a planned case that fits nowhere is not sent.
 */
import type { TestCase } from '../core/case.ts';
import { usesFiatAccount } from '../core/operations.ts';
import type { CaseFamily } from '../rules/cases/families.ts';
import type { MetadataState, Placement } from '../rules/update-fiat-account/metadata-state.ts';

export class AccountPool {
  private cursor = 0;
  private readonly familyTurns = new Map<CaseFamily, number>();
  /** Under replace each pool case gets its account in plan order (set once the semantics are known). */
  inPlanOrder = false;

  constructor(
    private pool: readonly string[],
    private readonly metadata: MetadataState,
    private readonly families: readonly CaseFamily[],
  ) {}

  /** The accounts cases may go to. */
  get ids(): readonly string[] {
    return this.pool;
  }

  /** Keeps only `ids` (the accounts journaled before the run: no other is written to). */
  keepOnly(ids: readonly string[]): void {
    this.pool = this.pool.filter((id) => ids.includes(id));
  }

  /**
   * `c` with its account, chosen now from what the accounts hold, and its metadata fitted to that
   * account (under merge); unchanged when it needs none or names its own. Or, when no account has
   * room for the key it needs, why it is not sent.
   */
  place(c: TestCase): Placement {
    if (!usesFiatAccount(c.operation) || c.fiatAccountId !== undefined) return { testCase: c };
    return this.metadata.place(c, this.ids, () => this.ids[this.cursor++ % this.ids.length]);
  }

  /** Why `c` would not be sent (place), without taking a turn of the accounts; undefined when it would. */
  roomless(c: TestCase): string | undefined {
    if (!usesFiatAccount(c.operation) || c.fiatAccountId !== undefined) return undefined;
    const placed = this.metadata.place(c, this.ids, () => this.ids[this.cursor % this.ids.length]);
    return 'unsent' in placed ? placed.unsent : undefined;
  }

  /**
   * `c` placed (place); one that fits nowhere goes as generated to the next account in turn: a
   * valid twin or a shrink candidate is asked for by a case already sent, and a refusal that the
   * keys held explain is excused (mergeMayExceedLimit).
   */
  assign(c: TestCase): TestCase {
    const placed = this.place(c);
    return 'testCase' in placed ? placed.testCase : { ...c, fiatAccountId: this.ids[this.cursor++ % this.ids.length] };
  }

  /** The account a planned case of `family` gets in plan order (replace), or undefined: it is chosen when the case starts. */
  planned(family: CaseFamily, c: TestCase): string | undefined {
    if (!this.inPlanOrder || !usesPool(c)) return undefined;
    const turn = this.familyTurns.get(family) ?? Math.max(0, this.families.indexOf(family));
    this.familyTurns.set(family, turn + 1);
    return this.ids[turn % this.ids.length];
  }
}

/** Whether a case, or its valid twin, is an update of a pool account (it names no id of its own). */
export const usesPool = (c: TestCase): boolean =>
  (usesFiatAccount(c.operation) && c.fiatAccountId === undefined) ||
  (c.control !== undefined && usesFiatAccount(c.control.operation) && c.control.fiatAccountId === undefined);

/** `c` on `account` when it is an update of the pool; otherwise unchanged. */
export const onAccount = (c: TestCase, account: string | undefined): TestCase =>
  account && usesFiatAccount(c.operation) && c.fiatAccountId === undefined ? { ...c, fiatAccountId: account } : c;

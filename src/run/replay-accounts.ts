/**
 * The fiat accounts a replay sends to (docs/design.md, "A guest in a shared sandbox"): only those
 * the user named (--fiat-account-id or CONFORMANCE_FIAT_ACCOUNT_IDS) or, against the embedded
 * server, its own. A recorded account id stands for one of them:
 * - an id the user named is itself;
 * - an account of the recorded run's pool gets a named one, those not named in the order the
 *   input first names them; more pool accounts than named ones is a usage error before anything
 *   is sent;
 * - a well-formed id outside the pool (an unknown-id probe) becomes a fresh random UUID, which no
 *   account has: the probe still asks about an unknown id, and no one's account is written;
 * - an id that is no UUID (a malformed-id probe) is no account id: sent as recorded.
 * No account named, for a recorded pool account: the request is skipped (and listed).
 */
import { randomUUID } from 'node:crypto';
import { UsageError } from '../core/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a recorded id goes: an account id to send to, or why the request is skipped. */
export type AccountChoice = { id: string } | { skip: string };

export class ReplayAccounts {
  private readonly mapped = new Map<string, string>();
  private readonly named: ReadonlySet<string>;

  /**
   * @param targetIds the accounts the user named, or the embedded server's
   * @param recordedPool the recorded run's pool accounts, in the order the input first names them
   */
  constructor(
    readonly targetIds: readonly string[],
    recordedPool: readonly string[],
  ) {
    this.named = new Set(targetIds.map((id) => id.toLowerCase()));
    const pool = recordedPool.filter((id) => !this.named.has(id.toLowerCase()));
    const free = targetIds.filter((id) => !recordedPool.some((p) => p.toLowerCase() === id.toLowerCase()));
    if (targetIds.length && pool.length > free.length) {
      throw new UsageError(
        `the input updates ${recordedPool.length} fiat accounts and ${targetIds.length} are named: give as many --fiat-account-id of the target (replay writes only accounts you name)`,
      );
    }
    pool.forEach((id, i) => {
      if (free[i]) this.mapped.set(id.toLowerCase(), free[i]);
    });
    this.pool = new Set(recordedPool.map((id) => id.toLowerCase()));
  }

  private readonly pool: ReadonlySet<string>;

  /** The account a request recorded on `recorded` is sent to, or why it is skipped. */
  choose(recorded: string): AccountChoice {
    const key = recorded.toLowerCase();
    if (this.named.has(key)) return { id: recorded };
    const mapped = this.mapped.get(key);
    if (mapped) return { id: mapped };
    if (this.pool.has(key)) return { skip: 'an account of the recorded run, and no --fiat-account-id of the target named to stand for it' };
    if (!UUID.test(recorded)) return { id: recorded };
    const fresh = randomUUID();
    this.mapped.set(key, fresh);
    return { id: fresh };
  }

  /** Whether `id` is an account of the target (named, or the embedded server's): one the replay writes and restores. */
  isTargetAccount(id: string): boolean {
    return this.named.has(id.toLowerCase());
  }
}

/** --fiat-account-id, else CONFORMANCE_FIAT_ACCOUNT_IDS: comma-separated, trimmed. */
export function namedAccounts(flagIds: readonly string[] | undefined, env: Record<string, string | undefined>): string[] {
  return (flagIds?.length ? flagIds : [env.CONFORMANCE_FIAT_ACCOUNT_IDS ?? ''])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

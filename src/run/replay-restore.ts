/**
 * A replay's restore, the run's own (src/engine/restore/account-restore.ts, used exactly as
 * src/engine/run-context.ts uses it): the target accounts are read before the first request,
 * and put back at the end however the replay ended (an error, Ctrl-C). An account whose start
 * read gave no FiatAccount gets no write: what it held is unknown, so nothing could put it back.
 */
import type { TestCase } from '../core/case.ts';
import { AccountRestore } from '../engine/restore/account-restore.ts';
import { IdentityLedger, type LedgerEntry } from '../engine/identity-ledger.ts';
import type { Exchange } from '../core/exchange.ts';
import { fitToPutBack } from '../engine/restore/put-back-fit.ts';
import type { RestoreSummary } from '../engine/restore/restore-summary.ts';
import type { MetadataSemantics } from '../rules/update-fiat-account/metadata-state.ts';
import type { Transport } from '../engine/transport/transport.ts';

/** What the restore did, the accounts the replay wrote that are not as they were found, and the identities it created (no delete exists). */
export interface ReplayRestoreResult {
  summary: RestoreSummary;
  leftChanged: string[];
  identities: LedgerEntry[];
}

/** Outcomes of an account that is as it was found. */
const AS_FOUND = new Set(['unchanged', 'restored']);

export class ReplayRestore {
  private readonly restore: AccountRestore;
  private readonly written = new Set<string>();
  /** What the replay's creates made, as a run's ledger keeps it (created-identities.json). */
  private readonly identities = new IdentityLedger('');

  /** `journal`: the target and, for a live one, where the journal goes (a repair needs it on disk). */
  constructor(
    ids: readonly string[],
    transport: Transport,
    semantics: () => MetadataSemantics,
    signal?: AbortSignal,
    journal?: { target: string; file?: string },
  ) {
    this.restore = new AccountRestore({
      ids,
      ...(journal ? { target: journal.target } : {}),
      ...(journal?.file ? { journalFile: journal.file } : {}),
      send: (c) => transport.sendCleanup(c),
      record: async () => {},
      semantics,
      interrupted: () => signal?.aborted === true,
    });
  }

  /** Reads every account before the replay sends anything. */
  readStart(): Promise<void> {
    return this.restore.readStart();
  }

  /** Whether the replay may write `id`: its state before is known (the start read answered with it). */
  mayWrite(id: string): boolean {
    return this.restore.journaled().includes(id);
  }

  /** `c` fitted to what the restore can put back, as the run sends it (put-back-fit.ts): no value on a field the account showed empty. */
  fit(c: TestCase): TestCase {
    return c.fiatAccountId ? fitToPutBack(c, this.restore.startState(c.fiatAccountId)) : c;
  }

  /** Notes a request sent to an account: it may have changed it. */
  wrote(id: string): void {
    this.written.add(id);
  }

  /** Notes what an answer shows the replay created: an identity stays (the document has no delete). */
  sent(exchange: Exchange): void {
    this.identities.observe(exchange);
  }

  /** Reads the accounts again and puts back what differs. */
  async finish(): Promise<ReplayRestoreResult> {
    const summary = await this.restore.finish();
    const leftChanged = summary.accounts.filter((a) => this.written.has(a.id) && !AS_FOUND.has(a.outcome)).map((a) => a.id);
    return { summary, leftChanged, identities: this.identities.list() };
  }
}

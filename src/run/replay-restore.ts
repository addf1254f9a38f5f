/**
 * A replay's restore, the run's own (src/engine/restore/account-restore.ts, used exactly as
 * src/engine/run-context.ts uses it): the target accounts are read before the first request,
 * and put back at the end however the replay ended (an error, Ctrl-C). An account whose start
 * read gave no FiatAccount gets no write: what it held is unknown, so nothing could put it back.
 */
import type { Exchange } from '../core/exchange.ts';
import { AccountRestore } from '../engine/restore/account-restore.ts';
import type { RestoreSummary } from '../engine/restore/restore-summary.ts';
import type { MetadataSemantics } from '../engine/metadata-state.ts';
import type { Transport } from '../engine/transport/transport.ts';
import { is2xx } from '../rules/checks/exchange-facts.ts';

/** What the restore did, and the accounts the replay wrote that are not as they were found. */
export interface ReplayRestoreResult {
  summary: RestoreSummary;
  leftChanged: string[];
}

/**
 * The exit code of a command that left a fiat account changed, as `conformance run` exits (issue
 * 29; precedence: a signal, 3, 2, 1, then 5, then 4 and 0).
 */
export const EXIT_LEFT_CHANGED = 5;

/** Outcomes of an account that is as it was found. */
const AS_FOUND = new Set(['unchanged', 'restored']);

export class ReplayRestore {
  private readonly restore: AccountRestore;
  private readonly readOk = new Set<string>();
  private readonly written = new Set<string>();

  constructor(ids: readonly string[], transport: Transport, semantics: () => MetadataSemantics, signal?: AbortSignal) {
    this.restore = new AccountRestore({
      ids,
      send: (c) => transport.sendCleanup(c),
      record: async (exchange: Exchange) => {
        if (exchange.testCase.restore === 'start-read' && is2xx(exchange) && exchange.testCase.fiatAccountId) this.readOk.add(exchange.testCase.fiatAccountId);
      },
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
    return this.readOk.has(id);
  }

  /** Notes a request sent to an account: it may have changed it. */
  wrote(id: string): void {
    this.written.add(id);
  }

  /** Reads the accounts again and puts back what differs. */
  async finish(): Promise<ReplayRestoreResult> {
    const summary = await this.restore.finish();
    const leftChanged = summary.accounts.filter((a) => this.written.has(a.id) && !AS_FOUND.has(a.outcome)).map((a) => a.id);
    return { summary, leftChanged };
  }
}

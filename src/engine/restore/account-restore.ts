/**
 * Leaves the pool's fiat accounts as the run found them (docs/design.md section 2, "What a run
 * leaves behind"). Before anything could change them, each is read with an empty update (`{}`:
 * every field is optional, so it is valid and changes nothing). At the end of the run, however it
 * ended, each is read again, what differs is written back in one update, and a read-back tells
 * what now reads as before. At most RESTORE_REQUESTS_PER_ACCOUNT requests per account.
 *
 * These requests are the run's housekeeping, no case of any rule: sent through the transport's
 * cleanup path (counted, recorded in exchanges.har, sent after an interrupt too), never judged.
 * A failure here fails no rule; the report says what could not be restored.
 */
import type { RestoreStep, TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import { cutText } from '../../core/cut-text.ts';
import { is2xx, isObject } from '../../rules/checks/exchange-facts.ts';
import type { MetadataSemantics } from '../metadata-state.ts';
import { RunStop } from '../run-stop.ts';
import { type AccountState, accountState } from './account-state.ts';
import { type FieldNote, planWriteBack, shownValue, type WriteBack } from './restore-plan.ts';
import { type RestoredAccount, type RestoreSummary, restoreNote } from './restore-summary.ts';

export interface RestoreParts {
  readonly ids: readonly string[];
  /** Sends a request of the restore (the transport's cleanup path). */
  send(c: TestCase): Promise<Exchange>;
  /** Tells the listeners of an exchange (exchanges.har records it). */
  record(exchange: Exchange): Promise<void>;
  /** What the probe learned of metadata updates (replace or merge). */
  semantics(): MetadataSemantics;
  /** True once the user interrupted the run: no account is read for a run that will change none. */
  interrupted(): boolean;
}

/** A read or a write that did not give a FiatAccount: why, in a few words. */
type Answer = { state: AccountState } | { failed: string; answerless: boolean; status?: number };

/** Answers that refuse the credentials, not the account. */
const REFUSED_CREDENTIALS = new Set([401, 403]);

export class AccountRestore {
  /** Each account's state at the start, or why it could not be read. */
  private readonly starts = new Map<string, AccountState | string>();
  private requests = 0;
  /** Set once a restore request got no answer: the others are not tried (a lost target would cost a timeout each). */
  private silence: string | undefined;

  constructor(private readonly parts: RestoreParts) {}

  /** Reads every account before the run changes any. */
  async readStart(): Promise<void> {
    let refused: string | undefined;
    for (const id of this.parts.ids) {
      if (this.parts.interrupted()) return;
      // Credentials refused once are refused for every account: the probe says so, a read each would only cost requests.
      if (refused) {
        this.starts.set(id, `was not sent: the target refused the credentials on an earlier account (${refused})`);
        continue;
      }
      const answer = await this.ask(id, 'start-read', {});
      this.starts.set(id, 'state' in answer ? answer.state : answer.failed);
      if (!('state' in answer) && answer.status !== undefined && REFUSED_CREDENTIALS.has(answer.status)) refused = `HTTP ${answer.status}`;
    }
  }

  /** Reads every account again and puts back what differs; what it did, per account. */
  async finish(): Promise<RestoreSummary> {
    const accounts: RestoredAccount[] = [];
    for (const id of this.parts.ids) accounts.push(await this.restore(id));
    return { enabled: true, note: restoreNote(accounts), requests: this.requests, accounts };
  }

  private async restore(id: string): Promise<RestoredAccount> {
    const start = this.starts.get(id);
    const notRestored = (reason: string): RestoredAccount => ({ id, outcome: 'not-restored', restored: [], notRestored: [], reason });
    if (start === undefined) return notRestored('the run ended before the account was read: it was not changed');
    if (typeof start === 'string') return notRestored(`the start read ${start}, so what the account held is unknown: it was not restored`);
    if (this.silence) return notRestored(`not tried: an earlier restore request ${this.silence}`);
    const end = await this.ask(id, 'end-read', {});
    if (!('state' in end)) return notRestored(`the end read ${end.failed}: the account was not restored`);
    const plan = planWriteBack(start, end.state, this.parts.semantics());
    if (!plan.body) return settled(id, [], plan.notRestored);
    const written = await this.ask(id, 'write-back', plan.body);
    if (!('state' in written)) return settled(id, [], [...plan.notRestored, ...unwritten(plan, `the write-back ${written.failed}`)]);
    const readBack = await this.ask(id, 'read-back', {});
    if (!('state' in readBack))
      return settled(id, [], [...plan.notRestored, ...unwritten(plan, `written back, but the read-back ${readBack.failed}: cannot tell`)]);
    return compared(id, plan, readBack.state);
  }

  /** Sends one restore request and reads the FiatAccount it answers. */
  private async ask(id: string, step: RestoreStep, body: Record<string, unknown>): Promise<Answer> {
    const c: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: `restore: ${LABELS[step]}`, body, fiatAccountId: id, restore: step };
    let exchange: Exchange;
    try {
      exchange = await this.parts.send(c);
    } catch (error) {
      // No token can be had any more (after an interrupt, or the token endpoint failed).
      if (!(error instanceof RunStop)) throw error;
      this.silence = `could not be sent (${error.message})`;
      return { failed: this.silence, answerless: true };
    }
    this.requests++;
    await this.parts.record(exchange);
    const answer = answerOf(exchange);
    if ('failed' in answer && answer.answerless) this.silence ??= answer.failed;
    return answer;
  }
}

const LABELS: Record<RestoreStep, string> = {
  'start-read': 'empty update (reads the account before the run)',
  'end-read': 'empty update (reads the account after the run)',
  'write-back': 'writes back what the run changed',
  'read-back': 'empty update (reads the account after the write-back)',
};

function answerOf(e: Exchange): Answer {
  if (!e.response) return { failed: `got no answer (${e.error?.kind ?? 'other'}: ${e.error?.message ?? 'unknown'})`, answerless: true };
  const said = e.response.rawBody ? `: ${cutText(e.response.rawBody.replace(/\s+/g, ' '), 160)}` : '';
  if (!is2xx(e)) return { failed: `was answered HTTP ${e.response.status}${said}`, answerless: false, status: e.response.status };
  const body = e.response.json ? e.response.body : undefined;
  if (!isObject(body)) return { failed: `was answered HTTP ${e.response.status} without a FiatAccount${said}`, answerless: false };
  return { state: accountState(body) };
}

/** Every field the write-back was to set, not restored for `reason`. */
const unwritten = (plan: WriteBack, reason: string): FieldNote[] => plan.expected.map((x) => ({ field: x.field, reason }));

/** The read-back against what the write-back was to set. */
function compared(id: string, plan: WriteBack, after: AccountState): RestoredAccount {
  const restored: string[] = [];
  const notRestored = [...plan.notRestored];
  for (const x of plan.expected) {
    const shown = x.read(after);
    if (JSON.stringify(shown) === JSON.stringify(x.value)) restored.push(x.field);
    else notRestored.push({ field: x.field, reason: `written back, but the account now shows ${shownValue(shown)} (before the run: ${shownValue(x.value)})` });
  }
  return settled(id, restored, notRestored);
}

function settled(id: string, restored: string[], notRestored: FieldNote[]): RestoredAccount {
  const outcome = notRestored.length ? (restored.length ? 'partly-restored' : 'not-restored') : restored.length ? 'restored' : 'unchanged';
  return { id, outcome, restored, notRestored };
}

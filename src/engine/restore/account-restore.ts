/**
 * Leaves the pool's fiat accounts as the run found them (docs/design.md, "A guest in a shared
 * sandbox"):
 * - **a journal first**: before anything could change them, each account is read and what it
 *   holds is written to the journal on disk (restore-journal.ts); an account that could not be
 *   journaled is left alone (the run sends it nothing);
 * - **a read is not a write**: accounts are read with GET where the target answers it; an empty
 *   update (`PUT {}`) is a write on a target whose PUT replaces the record, so it is used only when
 *   the user allows it (--read-with-empty-update);
 * - **a restore that survives the target**: every request is retried on 429, 5xx, timeouts and
 *   resets, honouring Retry-After, for up to `patienceMs` while the target is away; one account's
 *   failure does not stop the others;
 * - **verified**: after writing back, the account is read again and compared with the journal
 *   field by field, JSON types and placements included; "restored" only when equal. Metadata keys
 *   a merging target kept are deleted where it allows it (a null value, then an empty object).
 *
 * These requests are the run's housekeeping, no case of any rule: sent through the transport's
 * cleanup path (counted, recorded in exchanges.har, sent after an interrupt too), never judged.
 */
import { checkServesApi, NO_ROUTE } from '../api-absence.ts';
import type { RestoreStep, TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import { cutText } from '../../core/cut-text.ts';
import { shellWord } from '../../core/shell-word.ts';
import { AuthenticationError, type ConformanceError, UnknownAccountsError, UnreachableError, UsageError, withAnswer } from '../../core/errors.ts';
import { TargetLost } from '../target-watch.ts';
import { is2xx, isObject } from '../../rules/checks/exchange-facts.ts';
import type { MetadataSemantics } from '../../rules/update-fiat-account/metadata-state.ts';
import { RunStop } from '../run-stop.ts';
import { retryDelayMs } from '../transport/retry-after.ts';
import { type AccountState, accountState, fieldName, isMasked, sameValue, setPath } from './account-state.ts';
import { differing, type FieldNote, planWriteBack, shownValue, writePaths } from './restore-plan.ts';
import { type JournalAccount, newJournal, type ReadMethod, type RestoreJournal, saveJournal } from './restore-journal.ts';
import { accountsLeftChanged, type RestoredAccount, type RestoreSummary, restoreNote } from './restore-summary.ts';

export interface RestoreParts {
  readonly ids: readonly string[];
  /** The base URL, for the journal. */
  readonly target?: string;
  /** Sends a request of the restore (the transport's cleanup path). */
  send(c: TestCase): Promise<Exchange>;
  /** Tells the listeners of an exchange (exchanges.har records it). */
  record(exchange: Exchange): Promise<void>;
  /** What the probe learned of metadata updates (replace or merge). */
  semantics(): MetadataSemantics;
  /** True once the user interrupted the run: no account is read for a run that will change none. */
  interrupted(): boolean;
  /** Where the journal is written; undefined: it is kept in memory only. */
  readonly journalFile?: string;
  /** The user allows empty updates as reads (a target without GET): --read-with-empty-update. */
  readonly emptyUpdateReads?: boolean;
  /** How long a request of the restore is tried again while the target is away (429, 5xx, no answer), ms. */
  readonly patienceMs?: number;
  /** Waits between attempts (tests pass a fast one). */
  sleep?(ms: number): Promise<void>;
  /** Every credential of the run: a target that echoes one into an account must not put it in the journal. */
  secrets?(): string[];
}

/** Default patience: a sandbox that restarts or rate-limits is waited for this long, per request. */
export const RESTORE_PATIENCE_MS = 60_000;

/** A read or a write that did not give a FiatAccount: why, in a few words. */
type Answer = { body: Record<string, unknown>; state: AccountState } | { failed: string; answerless: boolean; status?: number; transient?: boolean };

/**
 * No GET answered an account: the ids are unknown (404), or the target has no get operation. An
 * empty update would tell, but it writes where PUT replaces the record: only with the user's leave.
 */
function noHarmlessRead(ids: readonly string[], answers: readonly Answer[]): ConformanceError {
  const hint =
    'if they exist and the target has no GET of fiat accounts, allow reading them with an empty update (a write where PUT replaces the record): --read-with-empty-update (CONFORMANCE_READ_WITH_EMPTY_UPDATE=1)';
  const failed = answers.map((a) => ('failed' in a ? a.failed : '')).find(Boolean);
  if (answers.every((a) => 'status' in a && a.status === 404)) return new UnknownAccountsError([...ids], [], 'a GET of each', hint);
  return new UsageError(`the target answers no GET of fiat accounts (${failed}), so there is no read that cannot write; ${hint}`);
}

/** Answers worth waiting out: the target is busy or away for a moment. */
const TRANSIENT = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Answers that refuse the credentials, not the account. */
const REFUSED_CREDENTIALS = new Set([401, 403]);

/** How metadata keys the run added can be deleted on a merging target, once learned. */
type Deletion = 'null-value' | 'empty-object' | 'none';
const DELETIONS: Deletion[] = ['null-value', 'empty-object'];

/** A metadata key to delete (or a pair to put back once there is room), and where an update writes it. */
interface AddedKey {
  field: string;
  writeAt: readonly string[];
}

export class AccountRestore {
  private journal: RestoreJournal | undefined;
  /** Why an account has no journal entry (it is left alone). */
  private readonly leftAlone = new Map<string, string>();
  /** The last accepted update's answer per account: a change after it is someone else's. */
  private readonly lastSeen = new Map<string, AccountState>();
  private requests = 0;
  /** Set once the target stayed away for the whole patience: the other accounts get one try each. */
  private away = false;
  private deletion: Deletion | undefined;
  /** The restore's last exchange: why a read failed, in the target's words. */
  private lastExchange: Exchange | undefined;
  /** The start reads' exchanges: whether any is an answer of the API at all (api-absence.ts). */
  private readonly startReads: Exchange[] = [];

  constructor(private readonly parts: RestoreParts) {}

  /** True when the accounts are read with GET (the target has it). */
  readsWithGet(): boolean {
    return this.journal?.read === 'get';
  }

  /** What an account showed when journaled (undefined: not journaled): updates are fitted to it (put-back-fit.ts). */
  startState(id: string): AccountState | undefined {
    const entry = this.journal?.accounts.find((a) => a.id === id);
    return entry && accountState(entry.account);
  }

  /** The accounts the run may write to: those journaled. */
  journaled(): string[] {
    return this.journal?.accounts.map((a) => a.id) ?? [];
  }

  /** The journal's path, when it is on disk. */
  get journalFile(): string | undefined {
    return this.journal?.accounts.length ? this.parts.journalFile : undefined;
  }

  /** The keys of the client's metadata an account held at the start (for keeping a merging account within 6 pairs). */
  metadataKeysAtStart(id: string): string[] {
    const entry = this.journal?.accounts.find((a) => a.id === id);
    if (!entry) return [];
    // The client's map: the top-level one where the account shows it, else the instructions' (the embedded server's nested placement).
    const maps = [...accountState(entry.account).values()].filter((f) => f.kind === 'metadata');
    const top = maps.filter((f) => f.path.length === 2);
    return [...new Set((top.length ? top : maps).map((f) => f.path.at(-1)!))];
  }

  /** Reads every account before the run changes any, and journals each one read. */
  async readStart(): Promise<void> {
    if (!this.parts.ids.length) return;
    let read: ReadMethod = 'get';
    let answers = await this.readAll('get');
    const all = [...answers.values()];
    // No read is an answer of the API (HTML, 404/405/501 without JSON): does the base URL serve it at all?
    if (all.length === this.parts.ids.length) await checkServesApi(this.startReads, (c) => this.sendUnjudged(c), { restore: 'start-read' });
    // Every GET answered "no such route or method": the target has no get operation, or the ids are unknown.
    if (all.length === this.parts.ids.length && all.every((a) => !('state' in a) && a.status !== undefined && NO_ROUTE.has(a.status))) {
      if (!this.parts.emptyUpdateReads) throw noHarmlessRead(this.parts.ids, all);
      read = 'empty-update';
      answers = await this.readAll(read);
    }
    this.journal = newJournal(this.parts.target ?? '', read);
    const missing: string[] = [];
    for (const [id, answer] of answers) {
      if ('state' in answer) {
        this.journal.accounts.push({ id, journaledAt: new Date().toISOString(), account: answer.body });
        continue;
      }
      if (answer.status === 404) missing.push(id);
      this.leftAlone.set(id, `the start read ${answer.failed}: not journaled, so the run sent it nothing`);
    }
    await this.save();
    if (missing.length) throw new UnknownAccountsError(missing, [], read === 'get' ? 'a GET of the account' : 'an empty update');
    if (this.journal.accounts.length || this.parts.interrupted()) return;
    const [id, why] = [...this.leftAlone][0]!;
    const last = this.lastExchange!;
    // A target that answers nothing stops the run as one that stops mid-run does (exit 3, stopped.kind unreachable).
    if (!last.response) throw new TargetLost(last);
    // The target's own words go with the error: the report's reason quotes them.
    if (REFUSED_CREDENTIALS.has(last.response.status))
      throw withAnswer(
        new AuthenticationError(
          `the target refused the credentials (HTTP ${last.response.status} to a read of fiat account ${id}): check --token or the client credentials`,
        ),
        last.response,
      );
    throw withAnswer(
      new UnreachableError(`no fiat account could be journaled before the run (${id}: ${why}); the run writes to no account it could not put back`),
      last.response,
    );
  }

  /** Each account's read, until the user interrupts or the credentials are refused (they are for every account). */
  private async readAll(how: ReadMethod): Promise<Map<string, Answer>> {
    const answers = new Map<string, Answer>();
    for (const id of this.parts.ids) {
      if (this.parts.interrupted()) break;
      const answer = await this.read(id, 'start-read', how);
      answers.set(id, answer);
      if (!('state' in answer) && answer.status !== undefined && REFUSED_CREDENTIALS.has(answer.status)) break;
    }
    return answers;
  }

  /** Hears the run's exchanges: the last accepted update of each account, to tell someone else's change from the run's. */
  observe(e: Exchange): void {
    const id = e.testCase.fiatAccountId;
    if (e.testCase.restore || e.testCase.operation !== 'updateFiatAccount' || !id || !is2xx(e) || e.request.method !== 'PUT') return;
    if (isObject(e.response?.body)) this.lastSeen.set(id, accountState(e.response.body as Record<string, unknown>));
  }

  /** Puts every journaled account back and verifies it; what it did, per account. */
  async finish(): Promise<RestoreSummary> {
    const accounts: RestoredAccount[] = [];
    for (const id of this.parts.ids) {
      const entry = this.journal?.accounts.find((a) => a.id === id);
      if (!entry) {
        const why = this.leftAlone.get(id) ?? 'the run ended before the account was read: it was not changed';
        accounts.push({ id, outcome: 'left-alone', restored: [], notRestored: [], reason: why });
        continue;
      }
      accounts.push(await this.restoreEntry(entry));
      await this.save();
    }
    return this.summary(accounts);
  }

  /** Puts back the pending accounts of a journal read from disk (`conformance restore`). */
  async restoreJournal(journal: RestoreJournal): Promise<RestoreSummary> {
    this.journal = journal;
    const accounts: RestoredAccount[] = [];
    for (const entry of journal.accounts) {
      accounts.push(await this.restoreEntry(entry));
      await this.save();
    }
    return this.summary(accounts);
  }

  private summary(accounts: RestoredAccount[]): RestoreSummary {
    const summary: RestoreSummary = { enabled: true, note: restoreNote(accounts), requests: this.requests, accounts };
    const journal = this.journalFile;
    if (!journal) return summary;
    // Credentials come from the flags or .env, as for run: the command names none.
    const repair = `conformance restore ${shellWord(journal)} --base-url ${shellWord(this.parts.target ?? '')}`;
    return { ...summary, journal, ...(accountsLeftChanged(summary).length ? { repair } : {}) };
  }

  /** One account: read it, write back what differs, read again, and compare with the journal. */
  private async restoreEntry(entry: JournalAccount): Promise<RestoredAccount> {
    const outcome = await this.restoreAccount(entry);
    entry.outcome = outcome.outcome;
    entry.left = outcome.notRestored;
    return outcome;
  }

  private async restoreAccount(entry: JournalAccount): Promise<RestoredAccount> {
    const { id } = entry;
    const read = this.journal!.read;
    const journaled = accountState(entry.account);
    const end = await this.read(id, 'end-read', read);
    if (!('state' in end)) return { id, outcome: 'unknown', restored: [], notRestored: [], reason: `the end read ${end.failed}: the account may be changed` };
    const others = this.interference(id, end.state);
    const changed = differing(journaled, end.state);
    if (!changed.length) return { id, outcome: 'unchanged', restored: [], notRestored: [], ...others };
    let now = end.state;
    const plan = planWriteBack(journaled, now, this.parts.semantics());
    let refused: string | undefined;
    if (plan.body) {
      const written = await this.ask(id, 'write-back', plan.body);
      if (!('state' in written)) refused = `the write-back ${written.failed}`;
      const after = await this.read(id, 'read-back', read);
      if (!('state' in after))
        return { id, outcome: 'unknown', restored: [], notRestored: [], reason: `written back, but the read-back ${after.failed}: cannot tell`, ...others };
      now = after.state;
    }
    // A merging target keeps the keys the run added (and may have refused pairs that would pass 6 with them).
    const writeAt = writePaths(journaled);
    const kept = [...now.values()].filter((f) => f.kind === 'metadata' && !journaled.has(fieldName(f.path)));
    const added = [...plan.added, ...kept.map((f) => ({ field: fieldName(f.path), writeAt: writeAt(f) }))];
    if (added.length) now = await this.deleteAdded(id, journaled, now, added);
    return verified(id, changed, journaled, now, plan.notRestored, refused, others);
  }

  /**
   * Metadata keys a merging target kept after the journaled pairs went back: deleted with a null
   * value, else with an empty object (then the journaled pairs again), whichever the target honours
   * first; learned once, so the other accounts go straight to what works.
   */
  private async deleteAdded(id: string, journaled: AccountState, now: AccountState, added: readonly AddedKey[]): Promise<AccountState> {
    const writeAt = writePaths(journaled);
    const maps = new Set(added.map((a) => JSON.stringify(a.writeAt.slice(0, -1))));
    for (const way of this.deletion ? [this.deletion] : DELETIONS) {
      if (way === 'none') break;
      const steps: Record<string, unknown>[] = [{}, {}];
      if (way === 'null-value') for (const a of added) setPath(steps[0], a.writeAt, journaled.get(a.field)?.value ?? null);
      else {
        for (const map of maps) setPath(steps[0], JSON.parse(map) as string[], {});
        for (const f of journaled.values())
          if (f.kind === 'metadata' && !isMasked(f.value) && maps.has(JSON.stringify(writeAt(f).slice(0, -1)))) setPath(steps[1], writeAt(f), f.value);
      }
      for (const body of steps.filter((b) => Object.keys(b).length)) await this.ask(id, 'write-back', body);
      let after = await this.read(id, 'read-back', this.journal!.read);
      if (!('state' in after)) return now;
      // A deletion that broke what was back (a PUT that replaces the record, or metadata, drops what the body left out): written back again.
      const before = new Set(differing(journaled, now));
      const broken = differing(journaled, after.state).filter((f) => !before.has(f) && journaled.has(f));
      const again = broken.length ? planWriteBack(journaled, after.state, this.parts.semantics()).body : undefined;
      if (again) {
        await this.ask(id, 'write-back', again);
        const reread = await this.read(id, 'read-back', this.journal!.read);
        if ('state' in reread) after = reread;
      }
      now = after.state;
      if (!differing(journaled, now).some((f) => added.some((a) => a.field === f))) {
        this.deletion = way;
        return now;
      }
    }
    this.deletion = 'none';
    return now;
  }

  /** Fields that differ from the run's last accepted answer: changed after it, by someone else or by the target. */
  private interference(id: string, end: AccountState): { interference?: FieldNote[] } {
    const seen = this.lastSeen.get(id);
    if (!seen) return {};
    const notes = [...seen.keys()]
      .filter((f) => end.has(f) && seen.get(f)!.kind !== 'status' && !sameValue(seen.get(f)!.value, end.get(f)!.value))
      .map((field) => ({
        field,
        reason: `changed after the run's last accepted update (${shownValue(seen.get(field)!.value)} then): by someone else, or the target did not keep it`,
        was: seen.get(field)!.value,
        now: end.get(field)!.value,
      }));
    return notes.length ? { interference: notes } : {};
  }

  /** A request of the restore sent once, counted and recorded (the create that asks whether the API is there). */
  private async sendUnjudged(c: TestCase): Promise<Exchange> {
    const exchange = await this.parts.send(c);
    this.requests += 1;
    await this.parts.record(exchange);
    return exchange;
  }

  private read(id: string, step: RestoreStep, how: ReadMethod): Promise<Answer> {
    return this.ask(id, step, how === 'get' ? undefined : {});
  }

  /** Sends one restore request (a GET when `body` is undefined), patiently: what is transient is tried again. */
  private async ask(id: string, step: RestoreStep, body: Record<string, unknown> | undefined): Promise<Answer> {
    const c: TestCase = {
      operation: 'updateFiatAccount',
      mode: 'valid',
      label: `restore: ${LABELS[step]}${body ? '' : ' (GET)'}`,
      fiatAccountId: id,
      restore: step,
      ...(body ? { body } : { method: 'GET' }),
    };
    const patience = this.away ? 0 : (this.parts.patienceMs ?? RESTORE_PATIENCE_MS);
    const deadline = Date.now() + patience;
    for (let attempt = 0; ; attempt++) {
      let exchange: Exchange;
      try {
        exchange = await this.parts.send(c);
      } catch (error) {
        // No token can be had any more (after an interrupt, or the token endpoint failed).
        if (!(error instanceof RunStop)) throw error;
        return { failed: `could not be sent (${error.message})`, answerless: true };
      }
      this.requests += 1 + (exchange.resent?.length ?? 0);
      this.lastExchange = exchange;
      if (step === 'start-read') this.startReads.push(exchange);
      await this.parts.record(exchange);
      const answer = answerOf(exchange);
      const transient = 'failed' in answer && (answer.transient || (answer.status !== undefined && TRANSIENT.has(answer.status)));
      if (!transient) {
        if ('state' in answer) this.away = false;
        return answer;
      }
      const wait = retryDelayMs(exchange.response?.headers['retry-after'], Math.min(attempt, 5));
      if (Date.now() + wait > deadline) {
        if (answer.answerless) this.away = true;
        return { ...answer, failed: `${answer.failed}${attempt ? ` (${attempt + 1} attempts over ${Math.round(patience / 1000)} s)` : ''}` };
      }
      await (this.parts.sleep ?? sleep)(wait);
    }
  }

  private async save(): Promise<void> {
    if (this.parts.journalFile && this.journal) await saveJournal(this.parts.journalFile, this.journal, this.parts.secrets?.() ?? []);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LABELS: Record<RestoreStep, string> = {
  'start-read': 'reads the account before the run (journal)',
  'end-read': 'reads the account after the run',
  'write-back': 'writes back what the run changed',
  'read-back': 'reads the account after the write-back',
};

function answerOf(e: Exchange): Answer {
  // A timeout, a reset or a refused connection may pass (an answer cut mid-body too); a request our side could not form will not.
  const transient = e.error?.kind === 'timeout' || e.error?.kind === 'connection' || e.error?.kind === 'rate-limited';
  if (!e.response) return { failed: `got no answer (${e.error?.kind ?? 'other'}: ${e.error?.message ?? 'unknown'})`, answerless: true, transient };
  if (e.error && transient) return { failed: `got a broken answer (${e.error.kind}: ${e.error.message})`, answerless: false, transient };
  const said = e.response.rawBody ? `: ${cutText(e.response.rawBody.replace(/\s+/g, ' '), 160)}` : '';
  if (!is2xx(e)) return { failed: `was answered HTTP ${e.response.status}${said}`, answerless: false, status: e.response.status };
  const body = e.response.json ? e.response.body : undefined;
  if (!isObject(body)) return { failed: `was answered HTTP ${e.response.status} without a FiatAccount${said}`, answerless: false };
  return { body, state: accountState(body) };
}

/** The account after the restore, compared with the journal field by field. */
function verified(
  id: string,
  changed: string[],
  journaled: AccountState,
  now: AccountState,
  planned: FieldNote[],
  refused: string | undefined,
  others: { interference?: FieldNote[] },
): RestoredAccount {
  const still = new Set(differing(journaled, now));
  const restored = changed.filter((f) => !still.has(f));
  const named = new Map(planned.map((n) => [n.field, n]));
  const notRestored: FieldNote[] = [...still].map((field) => {
    const was = journaled.get(field)?.value;
    const shown = now.get(field)?.value;
    const kept = !journaled.has(field) && now.get(field)?.kind === 'metadata';
    // An empty string (or null) written back and accepted, yet the value stays: the target takes a blank for "absent".
    const blankIgnored = journaled.has(field) && (was === '' || was === null) && now.has(field);
    const planned = named.get(field);
    const reason =
      planned?.reason ??
      (refused
        ? `${refused}; before the run: ${shownValue(was)}, now: ${shownValue(shown)}`
        : kept
          ? 'added by the run; the target merges metadata and removes a key neither by a null value nor by an empty object'
          : blankIgnored
            ? `written back as ${shownValue(was)}, which the target ignores (it keeps ${shownValue(shown)}): no update can put it back`
            : `written back, but the account now shows ${shownValue(shown)} (before the run: ${shownValue(was)})`);
    const final = planned?.final ?? ((kept || blankIgnored) && !refused);
    return { field, reason, ...(journaled.has(field) ? { was } : {}), ...(now.has(field) ? { now: shown } : {}), ...(final ? { final } : {}) };
  });
  const outcome = notRestored.length ? (restored.length ? 'partly-restored' : 'not-restored') : 'restored';
  return { id, outcome, restored, notRestored, ...others };
}

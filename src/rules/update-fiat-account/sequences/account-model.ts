/**
 * What a sequence of updates has told each fiat account, and what the next answer about the
 * account must therefore show (docs/design.md section 2, "Sequences"). The model knows only what
 * the sequence itself sent (never what a target showed of its own, which it may change), and
 * judges only what an answer shows: a field absent from an answer is no finding here.
 *
 * - `fa.sequence.timestamps` (2.1): created_at is one instant in every answer about an account;
 *   updated_at never goes back from one update to the next, and after an update it is not older
 *   than the answer's own Date header by more than TIMESTAMP_TOLERANCE_MS ("time of the most
 *   recent update").
 * - `fa.sequence.persisted` (4.1): a field an earlier update stored and this one did not send
 *   shows the stored value (owner names; metadata pairs, under replace until metadata is sent
 *   again, under merge until the key is sent again).
 * - `fa.sequence.isolation` (4.1): no account shows a value that only another account was sent.
 */
import type { RuleId } from '../../../core/catalogue.ts';
import type { Exchange } from '../../../core/exchange.ts';
import type { Problem } from '../../check.ts';
import { dig, isObject, requestBody, sameText, shown, successBody } from '../../checks/exchange-facts.ts';
import { placed } from '../checks.ts';
import type { ProblemData } from '../../problem-kinds.ts';
import type { MetadataSemantics } from '../metadata-state.ts';

/** Accounts a sequence updates: two show a leak from one to the other; more cost requests. */
export const SEQUENCE_ACCOUNTS = 2;

export const SEQUENCE_RULES = ['fa.sequence.timestamps', 'fa.sequence.persisted', 'fa.sequence.isolation'] as const satisfies readonly RuleId[];
export type SequenceRule = (typeof SEQUENCE_RULES)[number];

/** How far updated_at may trail the answer's Date header: clocks of a web tier and a database differ a little. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

const OWNER_NAMES = ['first_name', 'last_name'] as const;

/** What one answer judged: the rules it judged, and the problems found (by rule). */
export interface AnswerJudgement {
  judged: Set<SequenceRule>;
  problems: Map<SequenceRule, Problem[]>;
}

interface AccountKnowledge {
  /** The first created_at an answer showed, as text and instant. */
  createdAt?: { text: string; at: number };
  updatedAt?: { text: string; at: number };
  /** Owner names the sequence stored, by field. */
  names: Map<string, string>;
  /** Metadata pairs the sequence stored that the account must still hold. */
  metadata: Map<string, string>;
}

const fresh = (): AccountKnowledge => ({ names: new Map(), metadata: new Map() });

/** Who was sent what: a value shown by an account it was never sent to, but sent to another, leaked. */
type SentValues = Map<string, Set<number>>;

export class AccountModel {
  private readonly accounts: AccountKnowledge[];
  private readonly sent: SentValues = new Map();

  /** @param accounts how many accounts the sequence updates (their indexes are 0 to accounts - 1). */
  constructor(
    accounts: number,
    private readonly semantics: () => MetadataSemantics,
  ) {
    this.accounts = Array.from({ length: accounts }, fresh);
  }

  /**
   * Judges the answer to an update of account `index`, then learns from it: a 2xx stores what
   * was sent; an answer that may have changed the account unseen (no answer, a 5xx, a rejected
   * review) makes the model forget what it knew of that account.
   */
  observe(index: number, e: Exchange): AnswerJudgement {
    const judgement: AnswerJudgement = { judged: new Set(), problems: new Map() };
    const status = e.response?.status;
    if (status === undefined || status >= 500) {
      this.accounts[index] = fresh();
      return judgement;
    }
    const body = successBody(e);
    if (!body) return judgement;
    // A review that rejected a change may put earlier values back: nothing stored can be expected.
    if (placed(body, 'status').some((p) => p.value === 'REJECTED')) {
      this.accounts[index] = { ...fresh(), createdAt: this.accounts[index].createdAt };
      return judgement;
    }
    const request = requestBody(e);
    this.judgeTimestamps(index, body, e, judgement);
    this.judgeNames(index, body, request, judgement);
    this.judgeMetadata(index, body, request, judgement);
    this.store(index, request);
    return judgement;
  }

  private judgeTimestamps(index: number, body: Record<string, unknown>, e: Exchange, judgement: AnswerJudgement): void {
    const account = this.accounts[index];
    const created = instant(body.created_at);
    if (created) {
      if (account.createdAt) {
        judgement.judged.add('fa.sequence.timestamps');
        if (created.at !== account.createdAt.at)
          add(judgement, 'fa.sequence.timestamps', `created_at changed from ${account.createdAt.text} to ${created.text} between two updates`, {
            kind: 'mismatch',
            params: { field: '/created_at', expected: account.createdAt.text, received: created.text },
          });
      } else account.createdAt = created;
    }
    const updated = instant(body.updated_at);
    if (!updated) return;
    if (account.updatedAt) {
      judgement.judged.add('fa.sequence.timestamps');
      if (updated.at < account.updatedAt.at)
        add(judgement, 'fa.sequence.timestamps', `updated_at went back from ${account.updatedAt.text} to ${updated.text} after an update`, {
          kind: 'timestamp-order',
          params: { field: '/updated_at', received: updated.text, notBefore: account.updatedAt.text },
        });
    }
    const date = Date.parse(e.response?.headers.date ?? '');
    if (!Number.isNaN(date)) {
      judgement.judged.add('fa.sequence.timestamps');
      if (updated.at < date - TIMESTAMP_TOLERANCE_MS)
        add(
          judgement,
          'fa.sequence.timestamps',
          `updated_at ${updated.text} of an account just updated is older than the answer's Date ${e.response?.headers.date} by more than ${TIMESTAMP_TOLERANCE_MS / 60_000} minutes: the update did not move it`,
          {
            kind: 'timestamp-order',
            params: { field: '/updated_at', received: updated.text, notBefore: String(e.response?.headers.date), toleranceMs: TIMESTAMP_TOLERANCE_MS },
          },
        );
    }
    account.updatedAt = updated;
  }

  private judgeNames(index: number, body: Record<string, unknown>, request: Record<string, unknown>, judgement: AnswerJudgement): void {
    for (const name of OWNER_NAMES) {
      if (dig(request, 'fiat_account_owner', 'person_details', name) !== undefined) continue; // the echo is fa.update-reflected's
      const stored = this.accounts[index].names.get(name);
      const got = dig(body, 'fiat_account_owner', 'person_details', name);
      if (stored === undefined || got === undefined) continue;
      this.judgeValue(index, `name:${name}`, stored, got, `fiat_account_owner.person_details.${name}`, `/fiat_account_owner/person_details/${name}`, judgement);
    }
  }

  private judgeMetadata(index: number, body: Record<string, unknown>, request: Record<string, unknown>, judgement: AnswerJudgement): void {
    const sentNow = isObject(request.metadata) ? request.metadata : {};
    const shownPairs = new Map<string, unknown>();
    for (const p of placed(body, 'metadata')) if (isObject(p.value)) for (const [k, v] of Object.entries(p.value)) shownPairs.set(k, v);
    // No pair of the client's shown at all: the answer does not show metadata (or a replace cleared it).
    if (![...shownPairs.values()].some((v) => typeof v === 'string')) return;
    for (const [key, stored] of this.accounts[index].metadata) {
      if (Object.hasOwn(sentNow, key)) continue;
      this.judgeValue(index, `metadata:${key}`, stored, shownPairs.get(key), `metadata pair ${JSON.stringify(key)}`, '/metadata', judgement);
    }
  }

  /** One stored value against what the answer shows: the same, a value only another account was sent (leaked), or another (lost). */
  private judgeValue(index: number, slot: string, stored: string, got: unknown, what: string, pointer: string, judgement: AnswerJudgement): void {
    const others = this.othersSent(index, slot);
    judgement.judged.add('fa.sequence.persisted');
    if (others.length) judgement.judged.add('fa.sequence.isolation');
    if (sameText(got, stored)) return;
    const leakedFrom = typeof got === 'string' ? this.sentTo(slot, got).filter((i) => i !== index) : [];
    if (leakedFrom.length && !this.sentTo(slot, got as string).includes(index)) {
      add(
        judgement,
        'fa.sequence.isolation',
        `account ${index + 1} shows ${what} ${shown(got)}, which only account ${leakedFrom[0] + 1} was sent (account ${index + 1} holds ${shown(stored)})`,
        { kind: 'leaked', params: { field: pointer, received: got as string, account: index + 1, from: leakedFrom[0] + 1 } },
      );
      return;
    }
    add(judgement, 'fa.sequence.persisted', `${what} stored ${shown(stored)} by an earlier update and not sent since, now shows ${shown(got)}`, {
      kind: 'not-persisted',
      params: { field: pointer, expected: stored, ...(got !== undefined ? { received: got } : {}) },
    });
  }

  /** Learns what a 2xx stored: the owner names sent; the metadata pairs, replaced or merged. */
  private store(index: number, request: Record<string, unknown>): void {
    const account = this.accounts[index];
    for (const name of OWNER_NAMES) {
      const value = dig(request, 'fiat_account_owner', 'person_details', name);
      if (typeof value !== 'string') continue;
      account.names.set(name, value);
      this.remember(`name:${name}`, value, index);
    }
    if (!isObject(request.metadata)) return;
    // Under replace the pairs sent are all the account holds; under merge (or unknown) the earlier pairs stay known only under merge.
    if (this.semantics() !== 'merge') account.metadata.clear();
    for (const [key, value] of Object.entries(request.metadata)) {
      if (typeof value !== 'string') continue;
      account.metadata.set(key, value);
      this.remember(`metadata:${key}`, value, index);
    }
  }

  private remember(slot: string, value: string, index: number): void {
    const key = `${slot}=${value}`;
    const to = this.sent.get(key) ?? new Set();
    to.add(index);
    this.sent.set(key, to);
  }

  private sentTo(slot: string, value: string): number[] {
    return [...(this.sent.get(`${slot}=${value}`) ?? [])];
  }

  /** The other accounts this sequence sent a value of `slot` to. */
  private othersSent(index: number, slot: string): number[] {
    const others = new Set<number>();
    for (const [key, to] of this.sent) if (key.startsWith(`${slot}=`)) for (const i of to) if (i !== index) others.add(i);
    return [...others];
  }
}

function instant(value: unknown): { text: string; at: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : { text: value, at };
}

/** A problem of `rule`, at the pointer its params name. */
function add(judgement: AnswerJudgement, rule: SequenceRule, message: string, data: ProblemData & { params: { field: string } }): void {
  const list = judgement.problems.get(rule) ?? [];
  list.push({ message, instancePath: data.params.field, ...data });
  judgement.problems.set(rule, list);
}

/**
 * What a refused update left behind (fa.refused-update.writes-nothing): the exchanges of the
 * refused-update scenario, in order, judged live and from recorded exchanges alike. An answer of
 * the scenario about an account (an accepted update's, a GET's) is what the account held; an
 * update refused after it (a 4xx) must have written nothing, so the next such answer shows none of
 * the refused body's values that differ from what it held before (owner names, metadata pairs). A
 * field the next answer does not show judges nothing; a field the observing update sent itself
 * neither; a GET the target does not answer with an account is no answer about it.
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { Problem } from '../check.ts';
import { describeStatus, dig, is2xx, is4xx, isObject, requestBody, sameText, shown } from '../checks/exchange-facts.ts';
import { clientMetadata } from './checks.ts';
import { shownKey } from './metadata-fit.ts';

export const REFUSED_UPDATE_RULE: RuleId = 'fa.refused-update.writes-nothing';

const OWNER_NAMES = ['first_name', 'last_name'] as const;

/** What an answer showed of an account: owner names and client metadata pairs, as given. */
interface Shown {
  names: Map<string, unknown>;
  metadata: Map<string, unknown>;
}

/** The outcome of one refusal the watch could look behind, or why it could not. */
export type RefusalObservation = { problems: Problem[]; exchange: Exchange } | { notJudged: string };

function shownBy(body: Record<string, unknown>): Shown {
  const names = new Map<string, unknown>();
  for (const name of OWNER_NAMES) {
    const value = dig(body, 'fiat_account_owner', 'person_details', name);
    if (value !== undefined) names.set(name, value);
  }
  const metadata = new Map(Object.entries(clientMetadata(body) ?? {}));
  return { names, metadata };
}

/** The JSON object a 2xx carried, whatever the case's intent (an accepted over-limit update shows what it stored). */
function answered(e: Exchange): Record<string, unknown> | undefined {
  const body = is2xx(e) && e.response?.json ? e.response.body : undefined;
  return isObject(body) ? body : undefined;
}

/** Per account: what the scenario's last answer showed, and the updates refused since. */
interface AccountWatch {
  before?: Shown;
  refused: Exchange[];
}

export class RefusedUpdateWatch {
  private readonly accounts = new Map<string, AccountWatch>();

  /** Takes the scenario's next exchange; what it decides of the refusals before it, if anything. */
  observe(e: Exchange): RefusalObservation[] {
    const id = e.testCase.fiatAccountId;
    if (id === undefined || e.testCase.exercises !== REFUSED_UPDATE_RULE) return [];
    const account = this.accounts.get(id) ?? { refused: [] };
    this.accounts.set(id, account);
    if (e.testCase.mode === 'invalid') return this.afterRefusal(account, e);
    // A read the target does not answer with an account shows nothing: the next answer will.
    if (e.testCase.method === 'GET' && !answered(e)) return [];
    return this.afterUpdate(account, e);
  }

  /** The over-limit update: refused (looked behind at the next answer), accepted, or not answered. */
  private afterRefusal(account: AccountWatch, e: Exchange): RefusalObservation[] {
    const body = answered(e);
    if (body) {
      account.before = shownBy(body);
      return [{ notJudged: `${e.testCase.label} was accepted, though section 8 refuses it (the limit's own rule judges that): no refusal to look behind` }];
    }
    if (is4xx(e)) {
      account.refused.push(e);
      return [];
    }
    // A 5xx or no answer is no refusal: the account may have changed in any way.
    account.before = undefined;
    return [{ notJudged: `${e.testCase.label} got ${describeStatus(e)}, not a refusal: what it changed cannot be told` }];
  }

  /** An accepted answer: the state after the refusals before it, and the state before the next. */
  private afterUpdate(account: AccountWatch, e: Exchange): RefusalObservation[] {
    const refused = account.refused.splice(0);
    const body = answered(e);
    const before = account.before;
    account.before = body && shownBy(body);
    if (!refused.length) return [];
    if (!body) return [{ notJudged: `the update after a refused one got ${describeStatus(e)}: nothing showed what the account held` }];
    if (!before) return [{ notJudged: 'no answer before the refused update showed what the account held' }];
    return [lookBehind(refused, before, shownBy(body), e)];
  }
}

/** The refused bodies' owner names and metadata pairs against the answer after them. */
function lookBehind(refused: readonly Exchange[], before: Shown, after: Shown, observing: Exchange): RefusalObservation {
  const sentNow = requestBody(observing);
  const problems: Problem[] = [];
  let judged = false;
  for (const e of refused) {
    const sent = requestBody(e);
    const why = `${e.testCase.label} was refused (${describeStatus(e)})`;
    for (const name of OWNER_NAMES) {
      const value = dig(sent, 'fiat_account_owner', 'person_details', name);
      // Only what differs from before can show a write; what the observing update sent is its own.
      if (typeof value !== 'string' || sameText(before.names.get(name), value) || dig(sentNow, 'fiat_account_owner', 'person_details', name) !== undefined)
        continue;
      if (!after.names.has(name)) continue;
      judged = true;
      if (sameText(after.names.get(name), value))
        problems.push(written(`/fiat_account_owner/person_details/${name}`, `owner ${name} ${shown(value)}`, before.names.get(name), value, why));
    }
    const pairs = dig(sent, 'metadata');
    if (!isObject(pairs) || isObject(sentNow.metadata) || !after.metadata.size) continue;
    judged = true;
    for (const [key, value] of Object.entries(pairs)) {
      if (sameText(before.metadata.get(key), value) || !sameText(after.metadata.get(key), value)) continue;
      problems.push(written('/metadata', `metadata pair ${shownKey(key)}: ${shown(value)}`, before.metadata.get(key), value, why));
    }
  }
  if (!judged) return { notJudged: 'the answer after the refused updates showed neither their owner names nor any metadata pair' };
  return { problems, exchange: observing };
}

function written(field: string, what: string, was: unknown, value: unknown, why: string): Problem {
  return {
    message: `${why}, yet the account now shows ${what}, which only that update sent (before it: ${shown(was)})`,
    instancePath: field,
    kind: 'mismatch',
    params: { field, expected: was ?? null, received: value },
  };
}

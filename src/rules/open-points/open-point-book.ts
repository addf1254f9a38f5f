/**
 * What the run learns on the document's open points: per field and kind of value, what the target
 * accepted and refused (its observed contract). A refusal counts only when the case's guaranteed
 * twin was accepted, so it is about the open value. A refusal no limit can explain is a finding:
 * the same value accepted elsewhere in the run, a text refused while a shorter and a longer text
 * of the same alphabet were accepted (open-values.ts makes the shorter hold only characters of
 * the longer), a date refused while earlier and later dates were accepted.
 *
 * The random cases keep mostly inside what the fixed cases showed (`keepInside`), so the rules
 * that judge accepted answers keep their coverage on a strict target. What they keep to is frozen
 * when the random cases start, so a seed gives the same cases at any concurrency.
 */
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { ObservedContract, ObservedLimit, OpenKind, OpenProbe } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import type { Problem } from '../check.ts';
import { isObject, statusOf, successBody } from '../checks/exchange-facts.ts';
import { compareLimits, summarizeLimit } from '../../core/observed-contract.ts';
import { PREFIX_ALPHABETS } from './open-values.ts';
import { IDENTITY_OPEN_POINTS, UPDATE_OPEN_POINTS } from './cases.ts';
import { BIRTH_YEARS } from '../cases/payload-parts.ts';

interface Answer {
  probe: OpenProbe;
  /** The value sent, as JSON: the same value is the same key. */
  sent: string;
  accepted: boolean;
  status: number;
  /** The case's label: what a message names an accepted answer by. */
  label: string;
  /**
   * A refusal's exchange: its finding's evidence and the contract's response. An acceptance keeps
   * none: a long run has thousands (issue 33, 15 MB at --runs 5000), and only its label is shown.
   */
  exchange?: Exchange;
  /** A refusal already blamed on the rule of valid requests. */
  blamed?: boolean;
}

interface Entry {
  operation: Operation;
  field: string;
  kind: OpenKind;
  answers: Answer[];
}

/** A value the target accepted on an open point, as sent: what a documented rule is combined with (combinations.ts). */
export interface AcceptedOpenValue {
  operation: Operation;
  field: string;
  kind: OpenKind;
  /** As the observed contract names it: "cjk", "GBR", "no dashes". */
  description: string;
  /** The value sent (its JSON parsed again). */
  value: unknown;
}

/** What an answer showed against the answers before it: a refusal no limit explains. */
export interface NeighbourFinding {
  exchange: Exchange;
  problems: Problem[];
}

/** Of every 4 random open cases beyond a known limit, 3 keep inside it. */
const KEPT_INSIDE_OF_4 = 3;
/** Values, per limit, that the contract lists. */
const LISTED = 6;

const DOMAINS = new Map([...IDENTITY_OPEN_POINTS, ...UPDATE_OPEN_POINTS].map((f) => [f.field, f.domain]));

export class OpenPointBook {
  private readonly entries = new Map<string, Entry>();
  /** Uniqueness entries whose shared value has its first holder. */
  private readonly held = new Set<Entry>();
  /** The refusals the random cases keep away from, by domain and kind; set while they run. */
  private frozen: Map<string, Answer[]> | undefined;

  /** A 2xx to an open case: recorded; earlier refusals it shows to be no limit are returned. */
  accepted(exchange: Exchange): NeighbourFinding[] {
    const entry = this.entryOf(exchange.testCase);
    const answer = this.answerOf(exchange, true);
    if (!entry || !answer) return [];
    // The first identity to hold the shared government id says nothing about uniqueness.
    if (entry.kind === 'uniqueness' && !this.held.has(entry)) {
      this.held.add(entry);
      return [];
    }
    entry.answers.push(answer);
    return entry.answers.filter((a) => !a.accepted && !a.blamed).flatMap((refused) => this.unexplained(entry, refused));
  }

  /** A refusal of an open case whose twin was accepted: recorded, and returned as a finding when no limit explains it. */
  refused(exchange: Exchange): NeighbourFinding[] {
    const entry = this.entryOf(exchange.testCase);
    const answer = this.answerOf(exchange, false);
    if (!entry || !answer) return [];
    entry.answers.push(answer);
    return this.unexplained(entry, answer);
  }

  /** From now on, random open cases beyond what was refused so far keep mostly inside it. */
  keepInsideFromNow(): void {
    const frozen = new Map<string, Answer[]>();
    for (const entry of this.entries.values()) {
      const key = domainKey(entry.operation, entry.field, entry.kind);
      frozen.set(key, [...(frozen.get(key) ?? []), ...entry.answers.filter((a) => !a.accepted)]);
    }
    this.frozen = frozen;
  }

  stopKeepingInside(): void {
    this.frozen = undefined;
  }

  /** `c`, or its guaranteed twin when `c` is beyond a limit the target showed (3 times in 4). */
  keepInside(c: TestCase): TestCase {
    if (!this.frozen || !c.open || !c.control) return c;
    const refused = this.frozen.get(domainKey(c.operation, c.open.field, c.open.kind)) ?? [];
    if (!refused.some((r) => beyond(c.open!, r.probe)) || hash(JSON.stringify(c.body)) % 4 >= KEPT_INSIDE_OF_4) return c;
    const { control, open, ...rest } = c;
    // Only random cases keep inside: their label says so.
    return { ...rest, label: `random ${open.field} kept inside the target's limits (instead of ${open.value})`, body: control.body };
  }

  /**
   * Every value accepted so far, the first of each description per field and kind, in a fixed
   * order (field, kind, description), so a run at any concurrency combines the same values.
   */
  acceptedValues(): AcceptedOpenValue[] {
    const values: AcceptedOpenValue[] = [];
    for (const entry of this.entries.values()) {
      const seen = new Set<string>();
      for (const answer of entry.answers) {
        if (!answer.accepted || seen.has(answer.probe.value) || answer.sent === '') continue;
        seen.add(answer.probe.value);
        const { operation, field, kind } = entry;
        values.push({ operation, field, kind, description: answer.probe.value, value: JSON.parse(answer.sent) });
      }
    }
    const key = (v: AcceptedOpenValue) => `${v.operation} ${v.field} ${v.kind} ${v.description}`;
    return values.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** Whether an open case on the field (of any kind) has had an answer. */
  tried(operation: Operation, field: string): boolean {
    return [...this.entries.values()].some((e) => e.operation === operation && e.field === field && e.answers.length > 0);
  }

  /** The observed contract: every field and kind tried, in a fixed order. */
  contract(): ObservedContract {
    const limits = [...this.entries.values()]
      .filter((e) => e.answers.length)
      .map((e) => this.limitOf(e))
      .sort(compareLimits);
    return { version: 1, limits };
  }

  private limitOf(entry: Entry): ObservedLimit {
    const accepted = entry.answers.filter((a) => a.accepted);
    const refused = entry.answers.filter((a) => !a.accepted);
    const lengths = (answers: Answer[]) => answers.map((a) => a.probe.length).filter((n): n is number => n !== undefined);
    const dates = accepted
      .map((a) => a.probe.date)
      .filter((d): d is string => d !== undefined)
      .sort();
    const limit: Omit<ObservedLimit, 'summary'> = {
      operation: entry.operation,
      field: entry.field,
      kind: entry.kind,
      accepted: distinct(accepted.map((a) => a.probe.value)).slice(0, LISTED),
      refused: distinctBy(refused, (a) => a.probe.value)
        .slice(0, LISTED)
        .map((a) => ({ value: a.probe.value, status: a.status, ...(a.exchange?.response ? { response: a.exchange.response } : {}) })),
      ...(entry.kind === 'length' && lengths(accepted).length ? { longestAccepted: Math.max(...lengths(accepted)) } : {}),
      ...(entry.kind === 'length' && lengths(refused).some((n) => n > 0) ? { shortestRefused: Math.min(...lengths(refused).filter((n) => n > 0)) } : {}),
      ...(dates.length ? { earliestAccepted: dates[0], latestAccepted: dates.at(-1) } : {}),
    };
    return { ...limit, summary: summarizeLimit(limit) };
  }

  /** Whether `refused` is shown to be no limit by the accepted answers of its entry. */
  private unexplained(entry: Entry, refused: Answer): NeighbourFinding[] {
    const accepted = entry.answers.filter((a) => a.accepted);
    const same = accepted.find((a) => a.sent === refused.sent);
    let why: string | undefined;
    if (same && entry.kind !== 'uniqueness') why = `the same value was accepted in "${same.label}"`;
    else if ((entry.kind === 'length' || entry.kind === 'alphabet') && PREFIX_ALPHABETS.has(refused.probe.alphabet ?? ''))
      why = bracketedText(refused, accepted);
    else if (entry.kind === 'date') why = bracketedDate(refused, accepted);
    if (!why) return [];
    refused.blamed = true;
    const exchange = refused.exchange!;
    const c = exchange.testCase;
    return [
      {
        exchange,
        problems: [
          {
            message: `${c.label}: refused (HTTP ${refused.status}), though ${why}: no limit explains the refusal of a valid request`,
            kind: 'unexplained-refusal',
            params: { field: entry.field, openKind: entry.kind, value: refused.probe.value, status: refused.status },
          },
        ],
      },
    ];
  }

  private entryOf(c: TestCase): Entry | undefined {
    if (!c.open) return undefined;
    const key = `${c.operation} ${c.open.field} ${c.open.kind}`;
    const entry = this.entries.get(key) ?? { operation: c.operation, field: c.open.field, kind: c.open.kind, answers: [] };
    this.entries.set(key, entry);
    return entry;
  }

  private answerOf(exchange: Exchange, accepted: boolean): Answer | undefined {
    const c = exchange.testCase;
    const status = statusOf(exchange);
    if (!c.open || status === undefined) return undefined;
    const sent = valueAt(c.body, c.open.field);
    // An accepted null or empty string: what the answer shows there says whether it was ignored or written.
    const probe =
      accepted && c.open.kind === 'null-or-empty' ? { ...c.open, value: `${c.open.value} ${ignoredOrWritten(exchange, c.open.field, sent)}` } : c.open;
    return { probe, sent: JSON.stringify(sent) ?? '', accepted, status, label: c.label, ...(accepted ? {} : { exchange }) };
  }
}

/** Open points whose limits likely hold across fields share them: by domain, else by field. */
const domainKey = (operation: Operation, field: string, kind: OpenKind) => `${operation} ${DOMAINS.get(field) ?? field} ${kind}`;

/** Whether an open value lies beyond what a refusal showed. */
function beyond(probe: OpenProbe, refused: OpenProbe): boolean {
  switch (probe.kind) {
    case 'length':
      if (refused.length === 0) return probe.length === 0;
      return probe.length !== undefined && refused.length !== undefined && probe.length >= refused.length;
    case 'alphabet':
      return probe.alphabet === refused.alphabet;
    case 'date': {
      if (!probe.date || !refused.date) return false;
      const below = refused.date < `${BIRTH_YEARS.first}`;
      return below ? probe.date <= refused.date : probe.date >= refused.date;
    }
    default:
      return true;
  }
}

/** An accepted answer below and one above the refused one, by `at` (a length, a date): neither bound explains it. */
function bracket<T extends number | string>(refused: Answer, accepted: Answer[], at: (a: Answer) => T | undefined): [T, T] | undefined {
  const value = at(refused);
  if (value === undefined) return undefined;
  const around = accepted.map(at).filter((v): v is T => v !== undefined);
  const below = around.find((v) => v < value);
  const above = around.find((v) => v > value);
  return below !== undefined && above !== undefined ? [below, above] : undefined;
}

/** A shorter and a longer accepted text of the refused one's alphabet. */
function bracketedText(refused: Answer, accepted: Answer[]): string | undefined {
  const same = accepted.filter((a) => a.probe.alphabet === refused.probe.alphabet);
  const found = bracket(refused, same, (a) => a.probe.length);
  return found && `texts of ${found[0]} and ${found[1]} characters of the same alphabet (${refused.probe.alphabet}) were accepted`;
}

/** An earlier and a later accepted date. */
function bracketedDate(refused: Answer, accepted: Answer[]): string | undefined {
  const found = bracket(refused, accepted, (a) => a.probe.date);
  return found && `${found[0]} and ${found[1]} were accepted`;
}

/**
 * Where an accepted null or empty string went, by the answer's value at the field (the
 * instructions may sit inside fiat_account_owner, 2.1 shape note): another value kept there is
 * `ignored`, the value sent is `written`, nothing there is an acceptance the answer does not show.
 */
function ignoredOrWritten(exchange: Exchange, field: string, sent: unknown): string {
  const body = successBody(exchange);
  const atTop = valueAt(body, field);
  const shownValue = atTop !== undefined ? atTop : valueAt(body, `fiat_account_owner.${field}`);
  if (shownValue === undefined) return 'accepted (the answer does not show the field)';
  return shownValue === sent ? 'written' : 'ignored';
}

/** The value at a field named as reports name it ("tax_details[].tax_payer_id": the first entry's). */
function valueAt(body: unknown, field: string): unknown {
  let value = body;
  for (const part of field.split('.')) {
    const name = part.replace(/\[\]$/, '');
    value = isObject(value) ? value[name] : undefined;
    if (part.endsWith('[]')) value = Array.isArray(value) ? value[0] : undefined;
  }
  return value;
}

const distinct = (values: string[]) => [...new Set(values)];
const distinctBy = <T>(items: T[], key: (item: T) => string) => [...new Map(items.map((i) => [key(i), i] as const)).values()];

/** A small stable hash (FNV-1a), so the same body keeps the same choice in every run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The target's own words: one short line of what the target answered, for every failure line of
 * the console, summary.md, junit.xml and report.html (`— target said: "first_name must be ASCII"`).
 *
 * Every candidate is gathered from every place a target puts its reason (word-candidates.ts: the
 * error fields of a JSON body, every entry of its lists of validation errors, the headers of a
 * validating proxy), and the one that says most about the failure is chosen (failure-focus.ts):
 * one naming the case's field or quoting its value, then one that points at a field, then one
 * naming a field of the request; a generic or canned text ("Bad Request", a message copied from
 * the vendor's examples) only when nothing specific was said. A tie goes to the earlier place.
 * Only when no place holds a reason: the body itself (the compact JSON, or the text; an HTML page
 * gives its title). On a success that failed a rule, only words on the rule's fields are quoted.
 *
 * The whole source is redacted before it is read and before it is cut, so a secret cut in half
 * cannot slip past the redaction of the finished text.
 */
import type { RecordedResponse } from '../../core/exchange.ts';
import { oneLine } from '../../core/text.ts';
import { failureFocus, nodesAt, type FocusedFailure, type WordsFocus } from './failure-focus.ts';
import { Redactor } from './redact.ts';
import { detailCandidates, entryCandidates, headerCandidates, isObject, VIOLATION_HEADERS, type WordCandidate } from './word-candidates.ts';

export { VIOLATION_HEADERS };

/** Longest excerpt, in code points. */
export const TARGET_WORDS_WIDTH = 120;

/** Texts that say a request was refused and no more: canned by frameworks and mocks alike. */
const GENERIC =
  /^(?:bad request|unprocessable(?: entity| content)?|validation (?:failed|error)s?|invalid (?:request|input|body|payload|parameters?)|(?:the )?request (?:body )?(?:is )?(?:invalid|malformed)\b.*|conflict|not found|forbidden|unauthorized|internal server error|error)\.?$/i;

/** How much each sign of specificity weighs; a candidate's score is their sum. */
const WEIGHT = { focusField: 10, focusWord: 6, hintField: 5, value: 4, located: 3, hintWord: 2, requestKey: 1, generic: -2 } as const;

const SOURCE_ORDER: Record<WordCandidate['source'], number> = { 'body-detail': 0, 'body-entry': 1, 'header-entry': 2, header: 3 };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `word` in `text` as a whole word (an underscore joins words: `summary_status` holds no `status`). */
const hasWord = (text: string, word: string): boolean => new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`, 'i').test(text);

/** The dotted paths a candidate points at: where it says, and that joined with the names it quotes (`'country'`). */
function pointsAt(c: WordCandidate): string[] {
  if (!c.path) return [];
  const quoted = [...c.text.matchAll(/['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]/g)].map((m) => `${c.path}.${m[1]}`);
  return [c.path, ...quoted];
}

/** How a candidate speaks of `field`: 2 names it (its path, or the whole dotted field in the text), 1 names its last part, 0 not. */
function naming(c: WordCandidate, field: string): number {
  const paths = pointsAt(c);
  if (paths.some((p) => p === field || p.endsWith(`.${field}`) || (field.endsWith(`.${p}`) && p.includes('.')))) return 2;
  if (field.includes('.') && c.text.includes(field)) return 2;
  const last = field.split('.').pop()!;
  return hasWord(c.text, last) || paths.some((p) => p.split('.').pop() === last) ? 1 : 0;
}

/** Field names of a JSON value, at any depth. */
function keysOf(value: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 6) return into;
  if (Array.isArray(value)) for (const v of value) keysOf(v, into, depth + 1);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into, depth + 1);
    }
  return into;
}

function score(c: WordCandidate, focus: WordsFocus, requestKeys: Set<string>): { total: number; concerns: boolean } {
  const onField = Math.max(0, ...focus.fields.map((f) => naming(c, f)));
  const onHint = Math.max(0, ...(focus.hints ?? []).map((f) => naming(c, f)));
  const quotesValue = (focus.values ?? []).some((v) => [...v].length >= 3 && c.text.includes(v));
  const namesRequestKey = [...requestKeys].some((k) => k.length >= 3 && hasWord(c.text, k));
  const total =
    (onField === 2 ? WEIGHT.focusField : onField === 1 ? WEIGHT.focusWord : 0) +
    (quotesValue ? WEIGHT.value : 0) +
    (c.path ? WEIGHT.located : 0) +
    (onHint === 2 ? WEIGHT.hintField : onHint === 1 ? WEIGHT.hintWord : 0) +
    (namesRequestKey ? WEIGHT.requestKey : 0) +
    (GENERIC.test(c.text) ? WEIGHT.generic : 0);
  return { total, concerns: onField > 0 };
}

/** Every candidate of an answer, in the order of the places they come from. */
function candidatesOf(body: unknown, headers: Record<string, string>): WordCandidate[] {
  const all = [...detailCandidates(body), ...entryCandidates(body, 'body-entry'), ...headerCandidates(headers)];
  return all.sort((a, b) => SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source]);
}

/** The candidate that says most about the focus; undefined when none (or, on a success, none concerns it). */
export function chooseWords(candidates: readonly WordCandidate[], focus: WordsFocus = { fields: [] }): string | undefined {
  const requestKeys = keysOf(focus.request);
  let best: { text: string; total: number } | undefined;
  for (const c of candidates) {
    const { total, concerns } = score(c, focus, requestKeys);
    if (focus.onlyConcerning && !concerns) continue;
    if (!best || total > best.total) best = { text: c.text, total };
  }
  return best?.text;
}

/** The explanation a JSON error body gives, or undefined when it has none of the usual fields. */
export function jsonErrorDetail(body: unknown, focus?: WordsFocus): string | undefined {
  return chooseWords(candidatesOf(body, {}), focus);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A text body as words: an HTML page gives its title, else its text without tags. */
function plainText(raw: string): string | undefined {
  if (/^\s*</.test(raw) && /<\/?(?:html|head|body|title|h1|p|div)\b/i.test(raw)) {
    const title = text(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(raw)?.[1]);
    const stripped = raw.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
    return title ?? text(stripped);
  }
  return text(raw);
}

/**
 * One line, at most TARGET_WORDS_WIDTH code points, of what the target answered; undefined when it
 * said nothing (no response, or an empty answer), or, under `focus.onlyConcerning`, nothing on the
 * focus. `redactor` should hold the run's secrets; without one, credential headers and token
 * fields are still redacted.
 */
export function targetWords(response: RecordedResponse | undefined, redactor: Redactor = new Redactor([]), focus?: WordsFocus): string | undefined {
  if (!response) return undefined;
  const body: unknown = response.json ? (response.body ?? parseJson(response.rawBody)) : parseJson(response.rawBody);
  // Redact the data before reading fields out of it, so a token field never becomes the words.
  const safeBody = body === undefined ? undefined : redactor.value(body);
  const chosen = chooseWords(candidatesOf(safeBody, redactor.headers(response.headers ?? {})), focus);
  const said = focus?.onlyConcerning
    ? (chosen ?? answerOnFields(safeBody, focus.fields))
    : (chosen ?? (safeBody !== undefined && typeof safeBody === 'object' ? JSON.stringify(safeBody) : undefined) ?? plainText(response.rawBody ?? ''));
  if (!said) return undefined;
  const line = oneLine(redactor.text(said), TARGET_WORDS_WIDTH);
  return line || undefined;
}

/** What a success answered at the first of `fields` it holds (`metadata: {"k1":"v"}`): its words on them. */
function answerOnFields(body: unknown, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const [value] = nodesAt(body, field);
    if (value !== undefined) return `${field}: ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** The target's words on a failure of `ruleId`: the ones about the failure's case and rule (failure-focus.ts). */
export function failureWords(failure: FocusedFailure | undefined, ruleId?: string, redactor?: Redactor): string | undefined {
  if (!failure?.response) return undefined;
  return targetWords(failure.response, redactor, failureFocus(failure, ruleId));
}

function parseJson(raw: string | undefined): unknown {
  if (!raw || !/^\s*[[{]/.test(raw)) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * ` — target said: "…"` for a failure line, or '' when the target said nothing on the failure, or
 * when the failure's message already quotes the same words.
 */
export function targetSaidSuffix(failure: FocusedFailure | undefined, redactor?: Redactor, ruleId?: string): string {
  const words = failureWords(failure, ruleId, redactor);
  if (!words || failure!.message.includes(words)) return '';
  return ` — target said: "${words}"`;
}

/**
 * Which of the target's words say why it answered as it did: the candidates of every place a
 * target puts its reason (word-candidates.ts), scored by how much each says of the focus (the
 * fields a failure is about, the values a case sent, the request's fields), the best kept. A
 * generic or canned text ("Bad Request", a message copied from a vendor's examples) wins only
 * when nothing specific was said; a tie goes to the earlier place. Only when no place holds a
 * reason: the body itself (the compact JSON, or the text; an HTML page gives its title).
 *
 * Pure and uncut: the report redacts what it passes in (target-words.ts) and cuts what comes out;
 * the engine quotes it in a shortfall line.
 */
import type { RecordedResponse } from './exchange.ts';
import { detailCandidates, entryCandidates, headerCandidates, isObject, type WordCandidate } from './word-candidates.ts';

/** What the words should be about. */
export interface WordsFocus {
  /** Fields the words should name, dotted (`person_details.address.country`), the case's own first. */
  fields: readonly string[];
  /** Weaker hints: fields the case's label names. */
  hints?: readonly string[];
  /** Values the case sent at its fields, which a target may quote back. */
  values?: readonly string[];
  /** The request body: words naming one of its fields are more specific than words naming none. */
  request?: unknown;
  /** Quote only words that name one of `fields`, else what the answer holds at them (a success that failed a rule). */
  onlyConcerning?: boolean;
  /** What the harness says already: a value of the answer it quotes is not quoted again. */
  known?: string;
}

/** The JSON of an answer: its parsed body, or its raw body when that parses (a body that claims no JSON). */
export function bodyOf(response: Pick<RecordedResponse, 'json' | 'body' | 'rawBody'>): unknown {
  if (response.json && response.body !== undefined) return response.body;
  const raw = response.rawBody;
  if (!raw || !/^\s*[[{]/.test(raw)) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** What a JSON value holds at a dotted field (`tax_details[].tax_payer_id` reads every entry). */
export function nodesAt(body: unknown, field: string): unknown[] {
  let nodes: unknown[] = [body];
  for (const segment of field.split('.')) {
    const key = segment.replace(/\[\]$/, '');
    nodes = nodes.flatMap((n) => (isObject(n) && key in n ? [n[key]] : [])).flatMap((n) => (segment.endsWith('[]') && Array.isArray(n) ? n : [n]));
  }
  return nodes;
}

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

/**
 * How a candidate speaks of `field`: 2 names it (its path, or the whole dotted field in the text),
 * 1 names its last part or points at the object holding it, 0 not.
 */
function naming(c: WordCandidate, field: string): number {
  const paths = pointsAt(c);
  if (paths.some((p) => p === field || p.endsWith(`.${field}`))) return 2;
  if (field.includes('.') && c.text.includes(field)) return 2;
  const last = field.split('.').pop()!;
  return hasWord(c.text, last) || paths.some((p) => p.split('.').pop() === last || field.startsWith(`${p}.`)) ? 1 : 0;
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
export function candidatesOf(body: unknown, headers: Record<string, string>): WordCandidate[] {
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

/** What a success answered at the first of `fields` it holds (`metadata: {"k1":"v"}`) and `known` does not quote already. */
function answerOnFields(body: unknown, fields: readonly string[], known = ''): string | undefined {
  for (const field of fields) {
    const [value] = nodesAt(body, field);
    if (value === undefined) continue;
    const shown = JSON.stringify(value);
    return known.includes(shown) ? undefined : `${field}: ${shown}`;
  }
  return undefined;
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
 * The target's words on an answer, uncut: the best candidate for `focus`, else the body. Under
 * `focus.onlyConcerning`, only words on its fields (or what the body holds there), else undefined.
 */
export function reasonIn(answer: { body: unknown; headers: Record<string, string>; rawBody: string }, focus?: WordsFocus): string | undefined {
  const chosen = chooseWords(candidatesOf(answer.body, answer.headers), focus);
  if (focus?.onlyConcerning) return chosen ?? answerOnFields(answer.body, focus.fields, focus.known);
  return chosen ?? (answer.body !== undefined && typeof answer.body === 'object' ? JSON.stringify(answer.body) : undefined) ?? plainText(answer.rawBody);
}

/**
 * A failure line: the harness's message, then what the target said
 * (`id.valid-accepted  … a valid request was not accepted (HTTP 422) — target said: "…"`). When the
 * line is too long, the target's quote is shortened first; then the case's label inside the
 * message; the harness's sentence, with its status, last, and then from the middle, never its end.
 */
import { oneLine } from '../../core/text.ts';
import type { Redactor } from './redact.ts';
import type { FocusedFailure } from './failure-focus.ts';
import { failureWords } from './target-words.ts';

/** A quote shorter than this says nothing: the message is shortened to leave it this much. */
const SHORTEST_QUOTE = 30;
/** A case label is not cut below this. */
const SHORTEST_LABEL = 24;
const SAID = ' — target said: ""';

const length = (s: string): number => [...s].length;

/** `message` in at most `width` code points: the label it opens with cut first, then its middle, keeping the end (the status). */
export function shortenMessage(message: string, width: number, label?: string): string {
  const flat = oneLine(message);
  const over = length(flat) - width;
  if (over <= 0) return flat;
  const opening = label ? oneLine(label) : undefined;
  if (opening && flat.startsWith(opening) && length(opening) > SHORTEST_LABEL) {
    const keep = Math.max(SHORTEST_LABEL, length(opening) - over);
    const shorter = oneLine(opening, keep) + flat.slice(opening.length);
    if (length(shorter) <= width) return shorter;
    return middleCut(shorter, width);
  }
  return middleCut(flat, width);
}

/** The head and the end of `text`, joined by `…`; the end keeps the status (`HTTP 422`) when the text names one. */
function middleCut(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  const status = Math.max(text.lastIndexOf('HTTP '), text.lastIndexOf('no response ('));
  const fromStatus = status >= 0 ? length(text.slice(status)) : 0;
  const tail = Math.min(Math.max(fromStatus, Math.floor(width / 3)), width - 2);
  const head = width - tail - 1;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * The message and the quote in at most `width` code points (Infinity: the message whole, the
 * quote as targetWords cut it). `words` undefined, or already in the message: the message alone.
 */
export function composeFailureLine(message: string, words: string | undefined, width = Infinity, label?: string): string {
  const flat = oneLine(message);
  if (!words || flat.includes(words)) return shortenMessage(flat, width, label);
  const room = width - length(flat) - length(SAID);
  if (room >= Math.min(length(words), SHORTEST_QUOTE)) return `${flat} — target said: "${oneLine(words, room)}"`;
  const shorter = shortenMessage(flat, Math.max(0, width - length(SAID) - SHORTEST_QUOTE), label);
  const left = width - length(shorter) - length(SAID);
  return left >= Math.min(length(words), SHORTEST_QUOTE) ? `${shorter} — target said: "${oneLine(words, left)}"` : shortenMessage(flat, width, label);
}

/** The failure line of a failure of `ruleId`: its message and the target's words on it. */
export function failureLine(failure: FocusedFailure, ruleId?: string, options: { width?: number; redactor?: Redactor } = {}): string {
  return composeFailureLine(failure.message, failureWords(failure, ruleId, options.redactor), options.width, failure.case?.label);
}

/**
 * The target's own words: one short line of what the target answered, for every failure line of
 * the console, summary.md, junit.xml and report.html (`— target said: "first_name must be ASCII"`).
 *
 * Every candidate is gathered from every place a target puts its reason (core/word-candidates.ts:
 * the error fields of a JSON body, every entry of its lists of validation errors, the headers of
 * a validating proxy), and the one that says most about the failure is chosen
 * (core/target-reason.ts, on the focus of failure-focus.ts): one naming the case's field or
 * quoting its value, then one that points at a field, then one naming a field of the request; a
 * generic or canned text ("Bad Request", a message copied from the vendor's examples) only when
 * nothing specific was said. A tie goes to the earlier place. Only when no place holds a reason:
 * the body itself (the compact JSON, or the text; an HTML page gives its title). On a success
 * that failed a rule, only words on the rule's fields are quoted.
 *
 * The whole source is redacted before it is read and before it is cut, so a secret cut in half
 * cannot slip past the redaction of the finished text.
 */
import type { RecordedResponse } from '../../core/exchange.ts';
import { oneLine } from '../../core/text.ts';
import { bodyOf, candidatesOf, chooseWords, reasonIn, type WordsFocus } from '../../core/target-reason.ts';
import { VIOLATION_HEADERS } from '../../core/word-candidates.ts';
import { failureFocus, type FocusedFailure } from './failure-focus.ts';
import { Redactor } from './redact.ts';

export { VIOLATION_HEADERS };

/** Longest excerpt, in code points. */
export const TARGET_WORDS_WIDTH = 120;

/** The explanation a JSON error body gives, or undefined when it has none of the usual fields. */
export function jsonErrorDetail(body: unknown, focus?: WordsFocus): string | undefined {
  return chooseWords(candidatesOf(body, {}), focus);
}

/**
 * One line, at most TARGET_WORDS_WIDTH code points, of what the target answered; undefined when it
 * said nothing (no response, or an empty answer), or, under `focus.onlyConcerning`, nothing on the
 * focus. `redactor` should hold the run's secrets; without one, credential headers and token
 * fields are still redacted.
 */
export function targetWords(response: RecordedResponse | undefined, redactor: Redactor = new Redactor([]), focus?: WordsFocus): string | undefined {
  if (!response) return undefined;
  const body = bodyOf(response);
  // Redact the data before reading fields out of it, so a token field never becomes the words.
  const safeBody = body === undefined ? undefined : redactor.value(body);
  const said = reasonIn({ body: safeBody, headers: redactor.headers(response.headers ?? {}), rawBody: response.rawBody ?? '' }, focus);
  if (!said) return undefined;
  const line = oneLine(redactor.text(said), TARGET_WORDS_WIDTH);
  return line || undefined;
}

/** The target's words on a failure of `ruleId`: the ones about the failure's case and rule (failure-focus.ts). */
export function failureWords(failure: FocusedFailure | undefined, ruleId?: string, redactor?: Redactor): string | undefined {
  if (!failure?.response) return undefined;
  return targetWords(failure.response, redactor, failureFocus(failure, ruleId));
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

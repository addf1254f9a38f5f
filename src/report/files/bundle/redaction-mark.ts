/**
 * The mark of a redacted exchanges.har (`--redact-personal`): its personal values are stand-ins,
 * which a replay must never write into a live target's accounts. The manifest says so for the
 * bundle (`redacted`); the HAR says so itself, for when it is copied out of the bundle alone:
 * `log._redactedPersonal` (HAR allows custom fields that begin with `_`) and a `log.comment` for people.
 */
import { headWith, isHarHead } from '../har-lines.ts';

export const REDACTED_HAR_COMMENT = 'personal values replaced by stand-ins (--redact-personal): replay it against the embedded server only';

/** The fields of the mark, first in the log. */
const MARK = { comment: REDACTED_HAR_COMMENT, _redactedPersonal: true };

/** The head line of a HAR in HarFile's layout with the mark set (har-lines.ts): what a redaction that streams the HAR writes first. */
export const markedHead = (line: string): string => headWith(line, MARK);

/**
 * The HAR text with the mark set (its entries untouched): in HarFile's layout on its head line, so
 * it keeps one entry a line; any other HAR rewritten whole; a text that is no HAR is left as it is
 * (no replay reads it).
 */
export function markRedactedHar(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')));
  if (isHarHead(firstLine)) return markedHead(firstLine) + text.slice(firstLine.length);
  let har: { log?: unknown };
  try {
    har = JSON.parse(text) as { log?: unknown };
  } catch {
    return text;
  }
  if (typeof har?.log !== 'object' || har.log === null) return text;
  return JSON.stringify({ ...har, log: { ...har.log, ...MARK } });
}

/** Whether a parsed HAR carries the mark. */
export const isMarkedRedacted = (har: unknown): boolean => (har as { log?: { _redactedPersonal?: unknown } } | null)?.log?._redactedPersonal === true;

/** Whether a manifest's text (a bundle's manifest.json) says its files were redacted. */
export function manifestSaysRedacted(text: string): boolean {
  try {
    return (JSON.parse(text) as { redacted?: unknown }).redacted === true;
  } catch {
    return false;
  }
}

/**
 * Phrases of the observed contract that summary.md, report.html and the console share, so they
 * say the same thing the same way: a limit in one line, the target's words on its first refusal,
 * and the open cases' counts.
 */
import type { ObservedLimit } from '../../core/open-point.ts';
import { oneLine } from '../../core/text.ts';
import type { ConformanceReport } from './model.ts';
import { TARGET_WORDS_WIDTH } from './target-words.ts';

/** `person_details.first_name, alphabet` */
export const pointName = (limit: ObservedLimit): string => `${limit.field}, ${limit.kind}`;

/** `400: first_name must match …`, the status alone when the target gave no words; undefined when nothing was refused. */
export function firstRefusalText(limit: ObservedLimit, width = TARGET_WORDS_WIDTH): string | undefined {
  const first = limit.refused[0];
  if (!first) return undefined;
  const said = first.said ? oneLine(first.said, width) : '';
  return said ? `${first.status}: ${said}` : String(first.status);
}

/** `person_details.first_name, alphabet: refused cjk, astral; accepted latin (400: first_name must …)` */
export function limitLine(limit: ObservedLimit, width = TARGET_WORDS_WIDTH): string {
  const refusal = firstRefusalText(limit, width);
  return `${pointName(limit)}: ${oneLine(limit.summary)}${refusal ? ` (${refusal})` : ''}`;
}

/** `41 open cases accepted, 6 refused`, or undefined for a report that did not count them (before 1.7.0). */
export function openCasesText(report: ConformanceReport): string | undefined {
  const counts = report.summary.openCases;
  if (!counts) return undefined;
  return `${counts.accepted} open ${counts.accepted === 1 ? 'case' : 'cases'} accepted, ${counts.refused} refused`;
}

/**
 * One line for people of what a run observed on one open point: "refuses from 201 characters
 * (accepted up to 200)", "refuses cjk, astral; accepts latin", "accepts all 4 tried".
 */
import type { ObservedLimit } from './open-point.ts';

const list = (values: readonly string[]) => values.join(', ');

export function summarizeLimit(limit: Omit<ObservedLimit, 'summary'>): string {
  const refused = limit.refused.map((r) => r.value);
  if (limit.kind === 'uniqueness') return refused.length ? 'refuses a value another identity holds' : 'accepts a value another identity holds';
  if (!refused.length) return `accepts every value tried (${list(limit.accepted)})`;
  if (limit.kind === 'length') {
    const parts = [
      refused.includes('empty') ? 'refuses empty text' : '',
      limit.shortestRefused !== undefined ? `refuses from ${limit.shortestRefused} characters` : '',
    ];
    const upTo = limit.longestAccepted !== undefined ? ` (accepted up to ${limit.longestAccepted})` : '';
    return `${parts.filter(Boolean).join(', ')}${upTo}`;
  }
  if (limit.kind === 'date') {
    const range = limit.earliestAccepted ? ` (accepted ${limit.earliestAccepted} to ${limit.latestAccepted})` : '';
    return `refuses ${list(refused)}${range}`;
  }
  return `refuses ${list(refused)}${limit.accepted.length ? `; accepts ${list(limit.accepted)}` : ''}`;
}

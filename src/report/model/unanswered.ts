/**
 * A run whose requests too often got no usable HTTP answer proves nothing: each lost answer is
 * only a finding of an `.answers` convention, and the documented rules are judged on the answers
 * that came through. Past a share of lost answers a run that would be conformant is inconclusive
 * (exit 4), with one line that says why; failed rules still make it non-conformant.
 */
import type { ReportTransport } from './model.ts';

/**
 * More than 5% of the requests without a usable answer: no conformant verdict. "Mostly" (50%) is
 * far too lenient for a release gate, which must not pass a target that drops 15% of its answers;
 * a sound target on a working network loses far fewer than 1 in 20 (a standard run of ~800
 * requests may lose 40 before it counts), so 5% stops flaky targets without failing flaky days.
 */
export const UNANSWERED_LIMIT = 0.05;

const KIND_WORDS: Record<keyof ReportTransport['byKind'], string> = {
  timeout: 'timed out',
  connection: 'dropped or reset',
  other: 'broke HTTP framing or failed otherwise',
};

const percent = (share: number): string => `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;

/**
 * `15 of 98 requests (15.3%) got no usable HTTP answer (3 timed out, 12 dropped or reset): above 5%
 * a run cannot be conformant`, or undefined when the share stays within the limit.
 */
export function unansweredReason(transport: Omit<ReportTransport, 'limit'>, limit = UNANSWERED_LIMIT): string | undefined {
  const { exchanges, unanswered, byKind } = transport;
  if (!exchanges || unanswered / exchanges <= limit) return undefined;
  const kinds = (Object.keys(KIND_WORDS) as (keyof typeof KIND_WORDS)[]).filter((k) => byKind[k] > 0).map((k) => `${byKind[k]} ${KIND_WORDS[k]}`);
  return `${unanswered} of ${exchanges} requests (${percent(unanswered / exchanges)}) got no usable HTTP answer (${kinds.join(', ')}): above ${percent(limit)} a run cannot be conformant`;
}

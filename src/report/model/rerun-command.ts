import type { ConformanceReport } from './model.ts';
import { PROFILES } from '../../engine/profiles.ts';
import { shellWord } from './curl.ts';
import { DEFAULT_READING, READING_KEYS } from '../../server/reading.ts';

/**
 * The command that runs the same cases again: same seed and number of random cases, same rules,
 * same target and request budget, or for the embedded server the same reading and fault (credentials come from .env
 * or flags, never from the report).
 */
export function rerunCommand(report: ConformanceReport): string {
  const parts = ['conformance run'];
  if (!report.target.embedded) {
    parts.push(`--base-url ${shellWord(report.target.baseUrl)}`);
    for (const id of report.target.fiatAccountIds ?? []) parts.push(`--fiat-account-id ${shellWord(id)}`);
  }
  parts.push(`--seed ${report.seed}`);
  const profileRuns = PROFILES[report.profile as keyof typeof PROFILES];
  if (profileRuns !== undefined && (report.runs === undefined || report.runs === profileRuns)) parts.push(`--profile ${report.profile}`);
  else if (report.runs !== undefined) parts.push(`--runs ${report.runs}`);
  for (const prefix of report.ruleFilter ?? []) parts.push(`--rule ${shellWord(prefix)}`);
  if (report.shard) parts.push(`--shard ${report.shard.index}/${report.shard.count}`);
  // The same budget fits the plan the same way: the same cases again.
  if (report.budget) parts.push(`--max-requests ${report.budget.maxRequests}`);
  if (report.target.embedded) {
    const flagOf = Object.fromEntries(Object.entries(READING_KEYS).map(([flag, field]) => [field, flag]));
    for (const [field, value] of Object.entries(report.target.reading ?? {})) {
      if (field === 'fault') parts.push(`--fault ${shellWord(value)}`);
      else if (flagOf[field] && String(DEFAULT_READING[field as keyof typeof DEFAULT_READING]) !== value)
        parts.push(`--reading ${shellWord(`${flagOf[field]}=${value}`)}`);
    }
  }
  if (report.strict) parts.push('--strict');
  return parts.join(' ');
}

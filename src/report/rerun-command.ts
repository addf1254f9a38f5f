import type { ConformanceReport } from './model.ts';

/** Keeps a value shell-safe for display: plain words as they are, anything else single-quoted. */
const shellWord = (value: string): string => (/^[\w./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * The command that runs the same cases again: same seed and profile, same target (credentials
 * come from .env or flags, never from the report).
 */
export function rerunCommand(report: ConformanceReport): string {
  const parts = ['conformance run'];
  if (!report.target.embedded) parts.push(`--base-url ${shellWord(report.target.baseUrl)}`);
  parts.push(`--seed ${report.seed}`, `--profile ${shellWord(report.profile)}`);
  if (report.strict) parts.push('--strict');
  return parts.join(' ');
}

/**
 * How the target answered each operation, for report.html's chart at a glance (conformance.json
 * `operations`, since 1.12.0): the requests sent, their answers by status code (`none` when no
 * usable answer came) and the latency of the answers (median, 95th percentile, slowest).
 */
import type { Exchange } from '../../core/exchange.ts';
import type { ReportOperation } from './model.ts';

/** The status of an answer as the chart counts it: the code, or `none`. */
const statusKey = (e: Exchange): string => (e.response ? String(e.response.status) : 'none');

/** The value at fraction `q` of sorted `values` (nearest rank). */
const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

export function createOperationAnswers() {
  const byOperation = new Map<string, { statuses: Map<string, number>; durations: number[] }>();
  return {
    count(e: Exchange): void {
      const operation = e.testCase.operation;
      const entry = byOperation.get(operation) ?? { statuses: new Map<string, number>(), durations: [] as number[] };
      entry.statuses.set(statusKey(e), (entry.statuses.get(statusKey(e)) ?? 0) + 1);
      if (e.response) entry.durations.push(e.durationMs);
      byOperation.set(operation, entry);
    },
    summary(): ReportOperation[] {
      return [...byOperation].map(([operation, { statuses, durations }]) => {
        const sorted = [...durations].sort((a, b) => a - b);
        return {
          operation: operation as ReportOperation['operation'],
          requests: [...statuses.values()].reduce((n, c) => n + c, 0),
          statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a.localeCompare(b))),
          latencyMs: { median: Math.round(quantile(sorted, 0.5)), p95: Math.round(quantile(sorted, 0.95)), max: Math.round(sorted.at(-1) ?? 0) },
        };
      });
    },
  };
}

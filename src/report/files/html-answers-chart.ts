/**
 * report.html's chart at a glance: per operation, one bar of its answers by status class (2xx,
 * 4xx, 5xx, none) and one of its latency (median, 95th percentile, slowest, on one scale for
 * every operation). Inline SVG with a title per part: nothing fetched, readable without a script.
 */
import type { ConformanceReport, ReportOperation } from '../model/model.ts';
import { escapeHtml as e } from './escape.ts';

const CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
const classOf = (status: string): (typeof CLASSES)[number] => (status === 'none' ? 'none' : (`${status[0]}xx` as (typeof CLASSES)[number]));

function statusBar(op: ReportOperation): string {
  let x = 0;
  const parts = CLASSES.map((cls) => {
    const codes = Object.entries(op.statuses).filter(([s]) => classOf(s) === cls);
    const n = codes.reduce((sum, [, c]) => sum + c, 0);
    if (!n || !op.requests) return '';
    const width = (n / op.requests) * 100;
    const title = `${n} ${cls === 'none' ? 'without a usable answer' : cls}: ${codes.map(([s, c]) => `${s} ×${c}`).join(', ')}`;
    const rect = `<rect class="answer-${cls}" x="${x.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10"><title>${e(title)}</title></rect>`;
    x += width;
    return rect;
  }).join('');
  return `<svg class="answers-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${e(`${op.operation}: ${statusText(op)}`)}">${parts}</svg>`;
}

function latencyBar(op: ReportOperation, scale: number): string {
  const at = (ms: number) => ((ms / scale) * 100).toFixed(3);
  const { median, p95, max } = op.latencyMs;
  return `<svg class="latency-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${e(`${op.operation} latency: ${latencyText(op)}`)}"><rect class="latency-max" x="0" y="3" width="${at(max)}" height="4"><title>slowest ${max} ms</title></rect><rect class="latency-p95" x="0" y="2" width="${at(p95)}" height="6"><title>95% within ${p95} ms</title></rect><rect class="latency-median" x="0" y="0" width="${at(median)}" height="10"><title>median ${median} ms</title></rect></svg>`;
}

const statusText = (op: ReportOperation): string =>
  Object.entries(op.statuses)
    .map(([s, c]) => `${s === 'none' ? 'no answer' : s} ×${c}`)
    .join(', ');
const latencyText = (op: ReportOperation): string => `median ${op.latencyMs.median} ms · 95% ${op.latencyMs.p95} ms · slowest ${op.latencyMs.max} ms`;

/** The chart, or undefined for a report that did not count the answers (before 1.12.0). */
export function answersChart(report: Pick<ConformanceReport, 'operations'>): string | undefined {
  const operations = report.operations ?? [];
  if (!operations.length) return undefined;
  const scale = Math.max(1, ...operations.map((op) => op.latencyMs.max));
  const rows = operations.map(
    (op) =>
      `<div class="answers-row" data-operation="${e(op.operation)}"><span class="label mono">${e(op.operation)}</span>${statusBar(op)}<span class="nums">${op.requests} requests: ${e(statusText(op))}</span><span></span>${latencyBar(op, scale)}<span class="nums">${e(latencyText(op))}</span></div>`,
  );
  const legend = CLASSES.map((cls) => `<span><i class="answer-${cls}"></i>${cls === 'none' ? 'no answer' : cls}</span>`).join('');
  return `<div class="answers"><div class="legend">${legend}<span>latency on one scale up to ${scale} ms</span></div>${rows.join('')}</div>`;
}

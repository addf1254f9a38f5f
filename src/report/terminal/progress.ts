/**
 * Progress while a run goes: requests sent against what the run plans, rules failing so far,
 * time, and what is judged now (the rule a case is for, or the case's label). Verdicts wait for shrinking, so every rule-end comes at the
 * end of the run: the figures are those known mid-run. Requests are the transport's own count,
 * the very figure the final `verdict: … (N requests …)` line and every report give; a failing
 * rule is announced by the engine (rule-failing) and ends failed or error in the final table.
 *
 * On a terminal (stderr is a TTY) one status line redrawn in place (status-line.ts); elsewhere
 * (a CI log) no redraws: at most one plain line every `intervalMs`, none for a short run.
 */
import type { ReportListener } from '../model/report-events.ts';
import type { StatusLine } from './status-line.ts';

export interface ProgressOptions {
  /** The status line when stderr is a terminal; without it, plain lines through `line`. */
  status?: StatusLine;
  /** Writes one plain progress line (no terminal); absent: no plain progress at all. */
  line?: (text: string) => void;
  /** Requests sent so far (the transport's count). */
  requestsSent: () => number;
  /** Requests the run plans against a faithful target (engine/plan.ts), once known. */
  planned?: () => number | undefined;
  /** Milliseconds now; tests pass their own clock. */
  now?: () => number;
  /** Least time between two plain lines; default 30 s. */
  intervalMs?: number;
  /** Calls `redraw` every second (the clock moves while requests wait); returns the stop. Default: an unref'd setInterval. */
  ticker?: ((redraw: () => void) => () => void) | null;
}

/** Least time between two redraws of the status line. */
const REDRAW_MS = 100;
const PLAIN_INTERVAL_MS = 30_000;
const BAR_WIDTH = 16;

/** `1:05`, `12:00`: minutes and seconds. */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** `[██████░░░░]`: the share of planned requests sent. */
function bar(sent: number, planned: number): string {
  const filled = Math.min(BAR_WIDTH, Math.round((sent / planned) * BAR_WIDTH));
  return `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
}

/** What the progress knows now, in words. */
export interface ProgressFigures {
  sent: number;
  planned?: number;
  failing: number;
  elapsedMs: number;
  current?: string;
}

/** The status line: `[████░░░░] 412/~819 requests · 2 failing · 0:12 · fa.metadata.over-pairs-rejected`. */
export function statusText(f: ProgressFigures): string {
  const requests =
    f.planned === undefined
      ? `${f.sent} requests`
      : f.sent <= f.planned
        ? `${bar(f.sent, f.planned)} ${f.sent}/~${f.planned} requests`
        : `${bar(1, 1)} ${f.sent} requests (~${f.planned} planned)`;
  return [requests, `${f.failing} failing`, clock(f.elapsedMs), ...(f.current ? [f.current] : [])].join(' · ');
}

/** The plain line for a log: `progress: 412 of ~819 requests sent, 2 rules failing so far, 0:30`. */
export function plainText(f: ProgressFigures): string {
  const requests = f.planned === undefined ? `${f.sent} requests sent` : `${f.sent} of ~${f.planned} requests sent`;
  return `progress: ${requests}, ${f.failing} ${f.failing === 1 ? 'rule' : 'rules'} failing so far, ${clock(f.elapsedMs)}`;
}

const defaultTicker = (redraw: () => void): (() => void) => {
  const timer = setInterval(redraw, 1000);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * A ReportListener that shows progress from run-start to run-end; `stop()` ends it early (a run
 * that throws) and clears the status line. Nothing is left on screen: the final lines say it all.
 */
export function createProgress(options: ProgressOptions): { listener: ReportListener; stop(): void } {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? PLAIN_INTERVAL_MS;
  const failing = new Set<string>();
  let started: number | undefined;
  let current: string | undefined;
  let lastDraw = -Infinity;
  let stopTicker: (() => void) | undefined;

  const figures = (): ProgressFigures => {
    const planned = options.planned?.();
    return {
      sent: options.requestsSent(),
      ...(planned !== undefined ? { planned } : {}),
      failing: failing.size,
      elapsedMs: now() - (started ?? now()),
      ...(current ? { current } : {}),
    };
  };
  const update = (force = false) => {
    if (started === undefined) return;
    const at = now();
    if (options.status) {
      if (!force && at - lastDraw < REDRAW_MS) return;
      lastDraw = at;
      options.status.show(statusText(figures()));
    } else if (options.line && at - started >= interval && at - lastDraw >= interval) {
      lastDraw = at;
      options.line(plainText(figures()));
    }
  };
  const stop = () => {
    stopTicker?.();
    stopTicker = undefined;
    started = undefined;
    options.status?.end();
  };

  const listener: ReportListener = (event) => {
    switch (event.type) {
      case 'run-start':
        started = now();
        if (!options.status) lastDraw = started;
        if (options.status && options.ticker !== null) stopTicker = (options.ticker ?? defaultTicker)(() => update(true));
        update(true);
        break;
      case 'rule-start':
        current = event.rule.id;
        update();
        break;
      case 'rule-failing':
        failing.add(event.rule.id);
        update(true);
        break;
      case 'exchange': {
        // What is judged now: the rule the case is for, else what the case is (a valid random create…).
        const c = event.exchange.testCase;
        current = c.violates ?? c.exercises ?? c.label;
        update();
        break;
      }
      case 'rule-end':
        break;
      case 'run-end':
        stop();
        break;
    }
  };
  return { listener, stop };
}

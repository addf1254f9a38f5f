/**
 * Requests that shrinking may spend: a sandbox counts every request, and shrinking against a
 * live target has no natural end (a target that breaks answers at random keeps "failing"). Past
 * a budget, the smallest failure so far is the evidence; the report states the budgets, what was
 * spent and which rules' shrinks were cut short.
 */
import type { RuleId } from '../core/catalogue.ts';

/** Requests per shrunk failure and per run: long free text shrinks a character at a time. */
export const SHRINK_REQUESTS = { perFailure: 50, perRun: 400 } as const;

/** What the report says about shrinking (the payload of run-end's `shrinking`). */
export interface ShrinkSummary {
  perFailure: number;
  perRun: number;
  /** Requests spent shrinking. */
  requests: number;
  /** Rules whose shrink ended at a budget, or was never started because the run's budget was spent. */
  cutShort: RuleId[];
}

export class ShrinkBudget {
  private spent = 0;
  private readonly cut = new Set<RuleId>();

  constructor(
    private readonly perFailure: number = SHRINK_REQUESTS.perFailure,
    private perRun: number = SHRINK_REQUESTS.perRun,
  ) {}

  /** Lowers the run's budget to what is left of a request budget (--max-requests). */
  capRun(left: number): void {
    this.perRun = Math.min(this.perRun, this.spent + Math.max(0, left));
  }

  /** Whether a shrink may start at all; a rule turned away is noted as cut short. */
  mayStart(rule: RuleId): boolean {
    if (this.spent < this.perRun) return true;
    this.cut.add(rule);
    return false;
  }

  /** The allowance of one failure's shrink: `take()` is false once it or the run's budget is spent. */
  forFailure(rule: RuleId): { take(): boolean } {
    let used = 0;
    return {
      take: () => {
        if (used >= this.perFailure || this.spent >= this.perRun) {
          this.cut.add(rule);
          return false;
        }
        used++;
        this.spent++;
        return true;
      },
    };
  }

  summary(): ShrinkSummary {
    return { perFailure: this.perFailure, perRun: this.perRun, requests: this.spent, cutShort: [...this.cut] };
  }
}

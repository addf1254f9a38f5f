/**
 * Whether the run goes on: the user's interrupt, --fail-fast's first failure, and once it stopped,
 * why. Every request is sent only after `checkGoOn`; the target lost mid-run stops it too (a
 * TargetLost thrown by the target watch, caught where the phases are run).
 */
import type { RuleDefinition, RuleId } from '../core/catalogue.ts';
import type { Stop } from './events.ts';
import { RunInterrupted, RunStop } from './run-stop.ts';

export class RunControl {
  /** The first failure that ends the run under --fail-fast. */
  private failFastRule: RuleId | undefined;
  /** Set when the run stopped early: the cause of every shortfall then. */
  private stoppedEarlyLine: string | undefined;
  private stop: Stop | undefined;

  constructor(
    private readonly signal?: AbortSignal,
    private readonly failFast?: (rule: RuleDefinition) => boolean,
  ) {}

  /** A rule saw a problem: under --fail-fast the first that counts ends the run. */
  noteFailure(rule: RuleDefinition): void {
    if (this.failFastRule === undefined && this.failFast?.(rule)) this.failFastRule = rule.id as RuleId;
  }

  /** --fail-fast saw its failure: the pipelines stop taking cases. */
  get failedFast(): boolean {
    return this.failFastRule !== undefined;
  }

  /** Throws RunStop once the user asked the run to stop, or --fail-fast saw its failure: no case is sent after that. */
  checkGoOn(): void {
    if (this.signal?.aborted) throw new RunInterrupted(String(this.signal.reason ?? 'a signal'));
    if (this.failFastRule !== undefined) throw new RunStop('fail-fast', `${this.failFastRule} failed, and --fail-fast ends the run at the first failure`);
  }

  /** Records why the run stopped: `requests` sent by then, `currentRule` the rule being judged. */
  stopped(error: RunStop, requests: number, currentRule: string | undefined): void {
    const failFast = error.kind === 'fail-fast' && this.failFastRule;
    // Where it stopped is in `requests` and `rule`; the message says why.
    this.stop = {
      kind: error.kind,
      message: error.message,
      ...(error.signal ? { signal: error.signal } : {}),
      requests,
      ...(failFast ? { rule: this.failFastRule } : currentRule ? { rule: currentRule } : {}),
    };
    this.stoppedEarlyLine =
      error.kind === 'fail-fast'
        ? `--fail-fast ended the run at the first failure (${this.failFastRule}) before this rule was judged enough; run without it to judge every rule`
        : error.kind === 'budget'
          ? `${error.message}, before this rule was judged enough; raise --max-requests`
          : `the run stopped before this rule was judged enough (${error.message})`;
  }

  /** Why the run ended before its end, for the run-end event; undefined when it ran to the end. */
  get stopReport(): Stop | undefined {
    return this.stop;
  }

  /** The cause of every shortfall of a run that stopped early. */
  get stoppedEarly(): string | undefined {
    return this.stoppedEarlyLine;
  }
}

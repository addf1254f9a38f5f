import type { RuleDefinition } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { ConformanceReport, ReportRule } from './model.ts';

/**
 * The run as the reporters see it: the engine's events folded into report terms by the report
 * builder (src/report/model/report-builder.ts). Reporters (console, report files) only consume these.
 */
export type ReportEvent =
  | { type: 'run-start'; baseUrl: string; seed: number; profile: string; rules: number; fiatAccountIds: readonly string[] }
  | { type: 'rule-start'; rule: RuleDefinition }
  | { type: 'exchange'; exchange: Exchange }
  /** A rule saw its first problem (or a crashed check): it will end failed or error (src/engine/events.ts). */
  | { type: 'rule-failing'; rule: RuleDefinition; atRequest: number }
  /** `firstFailureAtRequest`: requests sent when the rule first saw a problem (for the benchmark; not in the report). */
  | { type: 'rule-end'; rule: ReportRule; firstFailureAtRequest?: number }
  /** The exchanges are not repeated here: a listener that needs them keeps them from the 'exchange' events (exchanges.har does, on disk). */
  | { type: 'run-end'; report: ConformanceReport };

export type ReportListener = (event: ReportEvent) => void | Promise<void>;

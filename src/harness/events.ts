import type { RuleDefinition } from '../rules/catalogue.ts';
import type { Exchange } from './exchange.ts';
import type { ConformanceReport, ReportRule } from '../report/model.ts';

/** What the runner tells the console and the reporters; reporters only consume these. */
export type RunEvent =
  | { type: 'run-start'; baseUrl: string; seed: number; profile: string; rules: number; fiatAccountIds: readonly string[] }
  | { type: 'rule-start'; rule: RuleDefinition }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'rule-end'; rule: ReportRule }
  | { type: 'run-end'; report: ConformanceReport; exchanges: Exchange[] };

export type RunListener = (event: RunEvent) => void | Promise<void>;

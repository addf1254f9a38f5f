/**
 * What the engine tells whoever listens (DESIGN 4.5): the rules it judges, every exchange, and
 * each rule's outcome. The engine knows nothing of report formats; src/report folds these events
 * into conformance.json and the other reports.
 */
import type { RuleDefinition } from '../core/catalogue.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Problem } from '../rules/check.ts';
import type { UndocumentedField } from '../rules/undocumented-fields.ts';

/** One problem found, with the exchange that shows it and, for a shrunk property, fast-check's replay path. */
export interface Finding {
  problem: Problem;
  exchange: Exchange;
  path?: string;
}

/** What a run found for one rule. */
export interface RuleOutcome {
  rule: RuleDefinition;
  /** Exchanges or scenario outcomes that judged the rule. */
  cases: number;
  /** The evidence kept: the first is the minimal one when a property shrank it. */
  findings: Finding[];
  /** A check of this rule threw. */
  crashed: boolean;
}

export type RunEvent =
  | { type: 'run-start'; rules: readonly RuleDefinition[]; fiatAccountIds: readonly string[] }
  | { type: 'rule-start'; rule: RuleDefinition }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'rule-end'; outcome: RuleOutcome }
  | {
      type: 'run-end';
      outcomes: RuleOutcome[];
      exchanges: Exchange[];
      startedAt: string;
      durationMs: number;
      requests: number;
      undocumentedFields: UndocumentedField[];
    };

export type RunListener = (event: RunEvent) => void | Promise<void>;

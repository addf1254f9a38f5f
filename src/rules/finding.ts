import type { RuleId } from './catalogue.ts';
import type { Exchange } from '../harness/exchange.ts';

/** A rule broken by an exchange, as data (like ajv's ErrorObject). */
export interface Finding {
  ruleId: RuleId;
  message: string;
  instancePath?: string;
  exchange: Exchange;
}

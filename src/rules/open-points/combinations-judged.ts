/**
 * Which combinations of documented rules and accepted open values a run judged (combinations.ts):
 * per rule, the open values its cases held and how many cases, for conformance.json's `openSpace`
 * and summary.md. A combination the target refused is counted apart: its limit, never blamed.
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { CombinedValue } from '../../core/open-point.ts';
import { is2xx, isObject } from '../checks/exchange-facts.ts';

/** The value at a dotted field of a body. */
const valueAt = (body: unknown, field: string): unknown => field.split('.').reduce<unknown>((v, part) => (isObject(v) ? v[part] : undefined), body);

/** One rule judged over the open space. */
export interface OpenSpaceRule {
  rule: RuleId;
  /** Combination cases sent for the rule. */
  cases: number;
  /** Of them, valid cases the target refused (the combination is its limit: the rule judged nothing there). */
  refused: number;
  /** Every open value its cases held, in order of first sight. */
  values: CombinedValue[];
}

/** What a run judged over the open space. */
export interface OpenSpaceCoverage {
  /** Combination cases per rule the profile allows (combinations.ts, combinationsPerRule). */
  perRule: number;
  rules: OpenSpaceRule[];
}

export class CombinationsJudged {
  private readonly rules = new Map<RuleId, OpenSpaceRule>();
  private perRule = 0;

  /** The profile's bound, as the scenario applied it. */
  bound(perRule: number): void {
    this.perRule = perRule;
  }

  /**
   * A combination case of `rule` and its answer. Only the values the request held count: an
   * update goes fitted to what the restore can put back, so a field its account showed empty is
   * left out (restore/put-back-fit.ts), and a case left with none of its values judged nothing.
   */
  note(rule: RuleId, c: TestCase, exchange: Exchange): void {
    const sent = (c.combined ?? []).filter((v) => c.operation !== 'updateFiatAccount' || valueAt(exchange.testCase.body, v.field) !== undefined);
    if (!sent.length) return;
    const entry = this.rules.get(rule) ?? { rule, cases: 0, refused: 0, values: [] };
    this.rules.set(rule, entry);
    entry.cases += 1;
    if (c.mode === 'valid' && exchange.response && !is2xx(exchange)) entry.refused += 1;
    for (const value of sent)
      if (!entry.values.some((v) => v.field === value.field && v.kind === value.kind && v.value === value.value)) entry.values.push(value);
  }

  /** The report's section; undefined when no combination was sent. */
  coverage(): OpenSpaceCoverage | undefined {
    return this.rules.size ? { perRule: this.perRule, rules: [...this.rules.values()] } : undefined;
  }
}

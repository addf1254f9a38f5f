/**
 * The harness's fast-check arbitraries for QA tests of one's own: valid request bodies of each
 * operation, and for every rule that has cases of its own, its fixed boundary examples and the
 * arbitrary of its random cases. Use the `fc` exported beside them (the package's fast-check), so
 * that `fc.assert` and the arbitraries come from one copy of the library.
 */
import fc from 'fast-check';
import type { TestCase } from '../core/case.ts';
import { RULES, isRuleId } from '../core/catalogue.ts';
import { UsageError } from '../core/errors.ts';
import type { CreateIdentityRequest, FiatAccountMetadata, UpdateFiatAccountRequest } from '../schema/api-types.ts';
import { caseFamilies } from '../rules/cases/families.ts';
import { validUpdateBody, validUpdateMetadata } from '../rules/update-fiat-account/cases.ts';
import { validIdentityBody } from '../rules/create-identity/cases.ts';

export { fc };

/** Valid request bodies: every one must be accepted by a conformant target. */
export const arbitraries = {
  /** PUT /v2/transfer/fiat-accounts/{id}: every field optional, metadata within 6 pairs of 100 characters. */
  updateFiatAccountBody: validUpdateBody as fc.Arbitrary<UpdateFiatAccountRequest>,
  /** POST /v2/identity/identities: tax_details set unless tax_details_not_required is true. */
  createIdentityBody: validIdentityBody as fc.Arbitrary<CreateIdentityRequest>,
  /** Fiat account metadata within the limits: up to 6 pairs, keys and values of every length band up to 100 code points, of many scripts. */
  metadata: validUpdateMetadata as fc.Arbitrary<FiatAccountMetadata>,
};

/** A rule's own cases: fixed examples that always run, and random ones (absent for rules with fixed cases only). */
export interface RuleCases {
  rule: string;
  examples: TestCase[];
  arbitrary?: fc.Arbitrary<TestCase>;
}

/** The ids of the rules that have cases of their own (the others judge every exchange). */
export function rulesWithCases(): string[] {
  return [...new Set(caseFamilies().map((f) => f.rule))];
}

/**
 * The cases the harness sends for one rule: its fixed boundary examples and an arbitrary of its
 * random cases. Each case carries its intent (`mode`, `violates`, `exercises`). Throws a UsageError
 * for an id that is no rule, or a rule judged on every exchange (no cases of its own).
 */
export function casesForRule(ruleId: string): RuleCases {
  if (!isRuleId(ruleId)) throw new UsageError(`"${ruleId}" is no rule id; the ids: ${RULES.map((r) => r.id).join(', ')}`);
  const families = caseFamilies().filter((f) => f.rule === ruleId);
  if (!families.length) {
    throw new UsageError(`rule ${ruleId} has no cases of its own: it judges every exchange; rules with cases: ${rulesWithCases().join(', ')}`);
  }
  const randoms = families.flatMap((f) => (f.arbitrary ? [f.arbitrary] : []));
  return {
    rule: ruleId,
    examples: families.flatMap((f) => f.examples),
    ...(randoms.length ? { arbitrary: randoms.length === 1 ? randoms[0]! : fc.oneof(...randoms) } : {}),
  };
}

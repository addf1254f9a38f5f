/**
 * Documented rules judged over the open space (issue 32; docs/design.md, "Rules over the open
 * space"): a rule's own case (the tax rule's body without tax_details, a create whose govt_id must
 * mirror its cip_id, a create whose person_details must come back) with open values the target
 * ACCEPTED alone earlier in the run put in. Pairwise, not exhaustive: every accepted value of each
 * field the rule depends on at least once, and where the rule depends on two fields together
 * (cip_id and its kind, first and last name, nationality and cip_id_country) every pair of their
 * values, up to a bound per rule. A value the target refused is its limit and is never combined.
 *
 * Rules left out, and why: id.dob.midnight-utc depends on one open field (the date), which the
 * open cases already judge value by value; the metadata limits are the document's own bounds,
 * not open values; fa.update-reflected, whose owner names the update's open cases judge value by
 * value, and whose open values a sharded run tries in another share than the scenarios' (a
 * shard would then judge fewer cases than the whole run: engine/shard.ts). The ref_id rules are
 * judged with the accepted letter-case variant by the scenario (open-space-scenario.ts).
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';
import type { CombinedValue } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import { caseBuilder } from '../cases/family.ts';
import { withControl } from '../cases/twins.ts';
import { IDENTITY_OPEN_POINTS, UPDATE_OPEN_POINTS } from './cases.ts';
import { type OpenFacet, openExamples, setAt } from './open-facet.ts';
import type { AcceptedOpenValue } from './open-point-book.ts';

type Body = Record<string, unknown>;

/** A documented rule judged with accepted open values. */
export interface CombinedRule {
  rule: RuleId;
  operation: Operation;
  /** The fields whose accepted values the rule is judged with (as the observed contract names them). */
  fields: readonly string[];
  /** Whether the rule depends on the first two fields together: every pair of their values is covered. */
  paired: boolean;
  /** The rule's own case with `values` put in (its valid twin holds them too). */
  build(values: readonly AcceptedOpenValue[]): TestCase;
}

const PERSON = 'person_details';
const ADA = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' };
const TAX_ENTRY = { tax_payer_country: 'USA', tax_payer_id: '123456789' };
const SAMPLE_ADDRESS = { country: 'USA', address1: '1 Main Street', city: 'Springfield', province: 'IL', zip_code: '62701' };

/** The contract's words for the values of a case. */
export const combinedValues = (values: readonly AcceptedOpenValue[]): CombinedValue[] =>
  values.map(({ field, kind, description }) => ({ field, kind, value: description }));

/** `base` with every value set at its field. */
function withValues(base: Body, values: readonly AcceptedOpenValue[]): Body {
  return values.reduce((body, v) => setAt(body, v.field.split('.'), v.value), base);
}

/** "nationality GBR, cip_id_country GBR": the values as a label names them (the last part of each field). */
const valuesLabel = (values: readonly AcceptedOpenValue[]): string => values.map((v) => `${v.field.split('.').at(-1)} ${v.description}`).join(', ');

/**
 * A rule's case (`mode`, `rule`) combined with `values`, and its twin when `twinBody` is given:
 * both carry the values, so a refusal of the twin is the combination's limit, never blamed.
 */
function combinedCase(
  operation: Operation,
  what: string,
  mode: TestCase['mode'],
  body: Body,
  values: readonly AcceptedOpenValue[],
  rule?: RuleId,
  twinBody?: Body,
): TestCase {
  const combined = combinedValues(values);
  const c = caseBuilder(operation)(`${what} with ${valuesLabel(values)} (combined)`, mode, body, rule, { combined });
  if (!twinBody) return c;
  const paired = withControl(c, twinBody);
  return { ...paired, control: { ...paired.control!, combined } };
}

/** A tax rule's case (section 4.2): no tax_details, the flag as the rule has it; the twin holds one entry. */
function taxRule(rule: RuleId, mode: 'invalid' | 'boundary', flag: boolean | undefined): CombinedRule {
  const what = flag === undefined ? 'no tax_details and no tax_details_not_required' : `no tax_details with tax_details_not_required ${flag}`;
  return {
    rule,
    operation: 'createIdentity',
    fields: [`${PERSON}.nationality`, `${PERSON}.cip_id_country`],
    paired: true,
    build: (values) => {
      const body = withValues({ person_details: ADA, ...(flag === undefined ? {} : { tax_details_not_required: flag }) }, values);
      return combinedCase('createIdentity', what, mode, body, values, rule, { ...body, tax_details: [TAX_ENTRY] });
    },
  };
}

/** A valid case whose answer the rule judges (a check compares it with the request). */
function judgedOnAnswer(rule: RuleId, operation: Operation, what: string, base: Body, fields: string[]): CombinedRule {
  return { rule, operation, fields, paired: true, build: (values) => combinedCase(operation, what, 'valid', withValues(base, values), values) };
}

export const COMBINED_RULES: readonly CombinedRule[] = [
  taxRule('id.tax.absent-rejected', 'invalid', undefined),
  taxRule('id.tax.absent-false-rejected', 'invalid', false),
  taxRule('id.tax.not-required-accepted', 'boundary', true),
  judgedOnAnswer(
    'id.govt-id.mirrors-cip',
    'createIdentity',
    'a create whose govt_id must mirror its cip_id',
    { person_details: { ...ADA, cip_id: '123-45-6789', cip_id_type: 'SSN', cip_id_country: 'USA' }, tax_details_not_required: true },
    [`${PERSON}.cip_id`, `${PERSON}.cip_id_type`, `${PERSON}.cip_id_country`],
  ),
  judgedOnAnswer(
    'id.person-details.returned',
    'createIdentity',
    'a create whose person_details must come back',
    {
      person_details: { ...ADA, email: 'jane.doe@example.com', phone_number: '+15555550100', address: SAMPLE_ADDRESS },
      tax_details_not_required: true,
    },
    ['first_name', 'last_name', 'email', 'phone_number', 'address.address1', 'address.city', 'address.zip_code', 'address.country'].map(
      (f) => `${PERSON}.${f}`,
    ),
  ),
];

/** Kinds never combined: a value shared on purpose, a tax array's shape, metadata sizes, nulls (each the subject of its own cases). */
const NOT_COMBINED: ReadonlySet<string> = new Set(['uniqueness', 'partial-entry', 'entries', 'metadata', 'null-or-empty']);

/**
 * Rows of values: every value of each column at least once (row k holds the k-th value of each
 * column that has one, the paired columns cycling so each row pairs them), then, when `paired`,
 * every pair of the first two columns' values not yet in a row. At most `cap` rows, the rows that
 * cover each value first.
 */
export function coveringRows<T>(columns: readonly (readonly T[])[], paired: boolean, cap: number): T[][] {
  const present = columns.filter((c) => c.length);
  if (!present.length) return [];
  const [first, second] = paired && columns[0]?.length && columns[1]?.length ? [columns[0], columns[1]] : [undefined, undefined];
  const rows: T[][] = [];
  const pairs = new Set<string>();
  const singles = Math.max(...present.map((c) => c.length));
  for (let k = 0; k < singles; k++) {
    rows.push(present.flatMap((c) => (c === first || c === second ? [c[k % c.length]] : k < c.length ? [c[k]] : [])));
    if (first && second) pairs.add(`${k % first.length} ${k % second.length}`);
  }
  if (first && second)
    for (let i = 0; i < first.length; i++) for (let j = 0; j < second.length; j++) if (!pairs.has(`${i} ${j}`)) rows.push([first[i], second[j]]);
  return rows.slice(0, cap);
}

/** The combination cases of one rule from the accepted values (those of its fields, combinable kinds). */
export function combinationCases(rule: CombinedRule, accepted: readonly AcceptedOpenValue[], cap: number): TestCase[] {
  const columns = rule.fields.map((field) => accepted.filter((v) => v.operation === rule.operation && v.field === field && !NOT_COMBINED.has(v.kind)));
  return coveringRows(columns, rule.paired, cap).map((row) => rule.build(row));
}

/** Combination cases per rule under a profile of `runs` random cases per rule: a few on quick, more on deep, never many. */
export const combinationsPerRule = (runs: number): number => Math.min(24, Math.max(4, Math.ceil(runs / 4)));

const FACETS: Readonly<Record<Operation, readonly OpenFacet[]>> = { createIdentity: IDENTITY_OPEN_POINTS, updateFiatAccount: UPDATE_OPEN_POINTS };

/** The bodies the open examples go on when this scenario sends them itself: the smallest valid request of each operation. */
const LEARNING_BASE: Readonly<Record<Operation, Body>> = { createIdentity: { person_details: ADA, tax_details_not_required: true }, updateFiatAccount: {} };

/** The facets a rule's combinations draw on: those of its fields, of a kind that is combined. */
const facetsOf = (rule: CombinedRule): OpenFacet[] => FACETS[rule.operation].filter((f) => rule.fields.includes(f.field) && !NOT_COMBINED.has(f.kind));

/**
 * The open cases to send before combining, when the run has not tried a rule's fields: each
 * facet's examples, as the fixed cases send them. `tried(operation, field)`: whether the run has
 * an answer on the field already.
 */
export function learningCases(tried: (operation: Operation, field: string) => boolean): TestCase[] {
  const facets = new Map<OpenFacet, Operation>();
  for (const rule of COMBINED_RULES) for (const f of facetsOf(rule)) if (!tried(rule.operation, f.field)) facets.set(f, rule.operation);
  return [...facets].flatMap(([facet, operation]) => openExamples(operation, [facet], LEARNING_BASE[operation]));
}

/** The values of each facet's examples, as a faithful target accepts them all: what planning counts the combinations from. */
function exampleValues(): AcceptedOpenValue[] {
  const values = new Map<string, AcceptedOpenValue>();
  for (const operation of Object.keys(FACETS) as Operation[])
    for (const facet of FACETS[operation])
      for (const { value, probe } of facet.examples) {
        const key = `${operation} ${facet.field} ${facet.kind} ${probe.value}`;
        if (!values.has(key)) values.set(key, { operation, field: facet.field, kind: facet.kind, description: probe.value, value });
      }
  return [...values.values()];
}

/**
 * What the combinations send to a faithful target (it accepts every example value): the examples
 * the fixed cases did not send (`examplesSent`: in a sharded run the scenarios go with the family
 * of valid creates, engine/shard.ts, so a shard never sends them twice), each combination case,
 * the twin of each invalid one whose rule is `selected`. Identities created: every create but the invalid ones, and the twins.
 */
export function plannedCombinations(
  runs: number,
  examplesSent: (operation: Operation) => boolean,
  selected: (rule: string) => boolean = () => true,
): { requests: number; creates: number } {
  const learning = learningCases((operation) => examplesSent(operation));
  const cases = COMBINED_RULES.flatMap((rule) => combinationCases(rule, exampleValues(), combinationsPerRule(runs)));
  // A refused invalid case asks its twin only when its rule is judged (engine/valid-twins.ts).
  const twins = cases.filter((c) => c.mode === 'invalid' && c.control && selected(c.violates ?? '')).length;
  const creates = [...learning, ...cases].filter((c) => c.operation === 'createIdentity' && c.mode !== 'invalid').length + twins;
  return { requests: learning.length + cases.length + twins, creates };
}

/**
 * The fields of the API a text names: a rule (by its id and title, `id.dob.midnight-utc` ->
 * date_of_birth) or a case's label (`person_details.address.address1 60 characters` -> address1).
 * Read from the text against the property names of the API's schemas, so nothing here mirrors the
 * catalogue: a new rule names its fields by saying them.
 */
import { getRule, isRuleId } from '../../core/catalogue.ts';
import { registry } from '../../schema/registry.ts';

let vocabulary: Set<string> | undefined;

/** Every property name of the API's schemas (not the report's own). */
function apiFieldNames(): Set<string> {
  if (vocabulary) return vocabulary;
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) names.add(name);
      walk(value);
    }
  };
  const schemas = registry();
  for (const name of schemas.names()) if (!name.startsWith('conformance')) walk(schemas.schema(name));
  vocabulary = names;
  return names;
}

/**
 * The API fields `text` names, in order of appearance: dotted paths whose last part is a field
 * (`person_details.address.address1`, `tax_details[].tax_payer_id`), then field names as words
 * (`ref-id` read as ref_id).
 */
export function fieldsNamedIn(text: string): string[] {
  const known = apiFieldNames();
  const paths = (text.match(/[A-Za-z0-9_]+(?:\[\])?(?:\.[A-Za-z0-9_]+(?:\[\])?)+/g) ?? []).filter((p) => known.has(p.split('.').pop()!.replace('[]', '')));
  const words = text.split(/[^A-Za-z0-9_-]+/).flatMap((w) => [w, w.replace(/-/g, '_')]);
  return [...new Set([...paths, ...words.filter((w) => known.has(w))])];
}

/**
 * The fields a rule is about, as its id and title name them; none for a rule about no field
 * (`id.valid-accepted`). From the title only names no prose word can be (`created_at`,
 * `person_details.address`): "the wrong JSON type" is about no `type` field.
 */
export function ruleFields(ruleId: string): string[] {
  // A rule of another version of the catalogue (an older report): its id alone.
  const title = isRuleId(ruleId) ? getRule(ruleId).title : '';
  const fromId = ruleId.split('.').slice(1).join(' ');
  // "dob" is how rule ids shorten date_of_birth.
  const named = fieldsNamedIn(title).filter((f) => /[_.]/.test(f));
  return [...new Set([...fieldsNamedIn(fromId.replace(/\bdob\b/g, 'date_of_birth')), ...named])];
}

/**
 * The members each side requires at one object node. In a request, a member the OpenAPI requires
 * and the document leaves optional refuses a valid body (a required member of an optional object
 * is the usual case), and one the document requires (also under a condition, as the tax rule's
 * tax_details) and the OpenAPI does not is a forbidden body it accepts. In a response, the OpenAPI
 * may promise more than the document, unless the document's sample lacks the member there (a
 * top-level field the sample nests).
 */
import { type DriftNode, findingAt } from './drift-context.ts';
import type { DriftFinding } from './drift-finding.ts';
import { childPointer, flatten, type Json, type RefResolver, requiredOf, type SchemaView, isObject } from './schema-view.ts';

interface Conditional {
  name: string;
  pointer: string;
  /** "unless tax_details_not_required is true". */
  unless: string;
}

/** Members a side requires in an `else` (required unless the `if` holds). */
function conditionalRequired(view: SchemaView, resolver: RefResolver): Conditional[] {
  const found: Conditional[] = [];
  for (const f of view.fragments) {
    if (!isObject(f.schema.else) || !isObject(f.schema.if)) continue;
    const condition = Object.entries((f.schema.if.properties ?? {}) as Record<string, Json>)
      .filter(([, p]) => isObject(p) && 'const' in p)
      .map(([name, p]) => `${name} is ${JSON.stringify(p.const)}`);
    const otherwise = flatten([{ schema: f.schema.else, pointer: childPointer(f.pointer, 'else') }], resolver);
    for (const [name, pointer] of requiredOf(otherwise)) found.push({ name, pointer, unless: `unless ${condition.join(' and ') || 'its condition holds'}` });
  }
  return found;
}

/** Every difference of the required members of one object node. */
export function requiredDrifts(node: DriftNode): DriftFinding[] {
  const ours = requiredOf(node.ours);
  const theirs = requiredOf(node.theirs);
  const conditional = conditionalRequired(node.ours, node.ourResolver);
  const theirConditions = conditionalRequired(node.theirs, node.theirResolver);
  const findings: DriftFinding[] = [];
  const at = (name: string): DriftNode => ({ ...node, field: node.field ? `${node.field}.${name}` : name });
  for (const [name, pointer] of theirs) {
    if (ours.has(name)) continue;
    const parts = { keyword: 'required', theirs: pointer, openapi: `requires ${name}` };
    const rule = conditional.find((c) => c.name === name);
    if (rule) {
      findings.push(
        findingAt(at(name), 'contradiction', {
          ...parts,
          ours: rule.pointer,
          document: `requires ${name} ${rule.unless}`,
          reason: `requires ${name} even when the document does not (${rule.unless})`,
        }),
      );
    } else if (node.direction === 'request') {
      findings.push(
        findingAt(at(name), 'contradiction', {
          ...parts,
          document: `${name} optional`,
          reason: `refuses a body without ${name}, which the document leaves optional`,
        }),
      );
    } else {
      const lacking = node.shown.filter((v) => isObject(v) && !Object.hasOwn(v, name));
      findings.push(
        lacking.length
          ? findingAt(at(name), 'contradiction', {
              ...parts,
              document: `${name} optional here`,
              reason: `refuses the document's sample, which has no ${name} here`,
            })
          : findingAt(at(name), 'other', { ...parts, document: `${name} optional`, reason: `promises ${name}, which the document leaves optional` }),
      );
    }
  }
  const verb = node.direction === 'request' ? 'a body' : 'a response';
  for (const [name, pointer] of ours) {
    if (theirs.has(name)) continue;
    findings.push(
      findingAt(at(name), 'contradiction', {
        keyword: 'required',
        ours: pointer,
        document: `requires ${name}`,
        openapi: `${name} optional`,
        reason: `accepts ${verb} without ${name}, which the document requires`,
      }),
    );
  }
  // A condition the OpenAPI states otherwise (a oneOf, a then) is not compared, and reported as such.
  if (node.theirs.unreadable.length) return findings;
  for (const rule of conditional) {
    if (theirs.has(rule.name) || theirConditions.some((c) => c.name === rule.name && c.unless === rule.unless)) continue;
    findings.push(
      findingAt(at(rule.name), 'contradiction', {
        keyword: 'required',
        ours: rule.pointer,
        document: `requires ${rule.name} ${rule.unless}`,
        openapi: `${rule.name} optional`,
        reason: `accepts ${verb} without ${rule.name} (${rule.unless}), which the document forbids`,
      }),
    );
  }
  return findings;
}

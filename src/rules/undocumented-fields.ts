/**
 * Response fields the document does not list (e.g. the Identity's summary_status and the
 * misspelled `passthrough_verifier_type'`). They are information for the report, never failures.
 */
import { OPERATIONS, type Operation } from '../core/operations.ts';
import type { Exchange } from '../core/exchange.ts';
import { isAround } from '../core/case.ts';
import { cutText } from '../core/cut-text.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import { isObject, successBody } from './checks/exchange-facts.ts';

type Schema = Record<string, unknown>;

/** A response field the document does not list, where it was seen and how often. */
export interface UndocumentedField {
  path: string;
  operation: Operation;
  count: number;
}

/**
 * A target that invents field names in every answer must not grow the run's memory: the report
 * lists the first MAX_FIELDS paths, each name cut at MAX_NAME characters.
 */
const MAX_FIELDS = 200;
const MAX_NAME = 100;
const shortName = (key: string) => (key.length > MAX_NAME ? `${cutText(key, MAX_NAME)}…` : key);

export class UndocumentedFields {
  private readonly seen = new Map<string, UndocumentedField>();

  constructor(private readonly schemas: SchemaRegistry) {}

  observe(e: Exchange): void {
    const body = successBody(e);
    // Another method's answer (a list, a get) is no response of the operation.
    if (!body || isAround(e.testCase)) return;
    const operation = e.testCase.operation;
    this.walk(body, this.schemas.schema(OPERATIONS[operation].responseSchema), '', operation);
  }

  list(): UndocumentedField[] {
    return [...this.seen.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  private walk(value: unknown, schema: Schema, path: string, operation: Operation): void {
    const known = this.properties(schema);
    if (Array.isArray(value)) {
      const items = this.items(schema);
      if (items) for (const v of value) this.walk(v, items, `${path}/*`, operation);
      return;
    }
    if (!isObject(value) || !known) return;
    for (const [key, child] of Object.entries(value)) {
      const childSchema = known.get(key);
      const childPath = `${path}/${shortName(key)}`;
      if (!childSchema) {
        if (this.seen.size >= MAX_FIELDS && !this.seen.has(`${operation} ${childPath}`)) continue;
        const entry = this.seen.get(`${operation} ${childPath}`) ?? { path: childPath, operation, count: 0 };
        entry.count += 1;
        this.seen.set(`${operation} ${childPath}`, entry);
      } else this.walk(child, childSchema, childPath, operation);
    }
  }

  /** Documented properties of an object schema, through $ref and the combinators; null for free-form objects. */
  private properties(schema: Schema): Map<string, Schema> | null {
    const found = new Map<string, Schema>();
    let described = false;
    for (const s of this.parts(schema)) {
      if (isObject(s.properties)) {
        described = true;
        for (const [k, v] of Object.entries(s.properties)) if (isObject(v)) found.set(k, v);
      }
    }
    return described ? found : null;
  }

  private items(schema: Schema): Schema | undefined {
    return this.parts(schema)
      .map((s) => s.items)
      .find(isObject);
  }

  /** The schema itself plus every schema it pulls in by $ref, allOf, anyOf, oneOf, then and else. */
  private parts(schema: Schema, depth = 0): Schema[] {
    if (depth > 8) return [];
    const out: Schema[] = [schema];
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref
        .split('/')
        .pop()!
        .replace(/\.schema\.json.*$/, '');
      if (this.schemas.has(name)) out.push(...this.parts(this.schemas.schema(name), depth + 1));
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[key];
      if (Array.isArray(list)) for (const s of list) if (isObject(s)) out.push(...this.parts(s, depth + 1));
    }
    for (const key of ['then', 'else']) if (isObject(schema[key])) out.push(...this.parts(schema[key] as Schema, depth + 1));
    return out;
  }
}

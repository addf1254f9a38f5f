/**
 * The reading `update-nulls=ignored` (reading.ts): an update's null and empty-string members are
 * dropped before anything else, so the fields they name stay as they were. The vendor's own
 * OpenAPI says so of this operation ("Empty strings or null values are ignored"); the document
 * we test leaves it open (it types the fields, section 7 shows no errors).
 */
import { isPlainObject } from './json-body.ts';

type Body = Record<string, unknown>;

const ignorable = (value: unknown): boolean => value === null || value === '';

/**
 * `body` without its null and empty-string members, at any depth. The metadata pairs are the
 * client's data, not fields: they are kept as sent (a null pair is still a wrong type), and only
 * a null metadata as a whole is dropped.
 */
export function withoutIgnoredValues(body: Body): Body {
  const strip = (object: Body, inMetadata: boolean): Body =>
    Object.fromEntries(
      Object.entries(object)
        .filter(([, value]) => inMetadata || !ignorable(value))
        .map(([key, value]) => [key, isPlainObject(value) && !inMetadata ? strip(value, key === 'metadata') : value]),
    );
  return strip(body, false);
}

/** The value a JSON pointer names in `body` (undefined where nothing is). */
export function valueAtPointer(body: unknown, pointer: string): unknown {
  let value = body;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    value = isPlainObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** The document's sample requests, reconstructed in fixtures/samples/. */
import { readFileSync } from 'node:fs';

const SAMPLES = new URL('../../../fixtures/samples/', import.meta.url);

/**
 * A sample by file name without `.json`, as a request to send: a fresh copy, without the fields
 * that hold one of the document's placeholders (`<passthrough_verifier_name>`): their real
 * values are not shown, so no server can be expected to accept them.
 */
export function sample(name: string): Record<string, unknown> {
  const text = readFileSync(new URL(`${name}.json`, SAMPLES), 'utf8');
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' && /^<[^>]+>$/.test(value) ? undefined : value)) as Record<string, unknown>;
}

/** The document's sample requests, reconstructed in fixtures/samples/. */
import { readFileSync } from 'node:fs';

const SAMPLES = new URL('../../../fixtures/samples/', import.meta.url);

/** A sample by file name without `.json`; a fresh copy each call. */
export function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${name}.json`, SAMPLES), 'utf8')) as Record<string, unknown>;
}

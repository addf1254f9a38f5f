/**
 * Links, in exchanges.har, a case refused with a valid twin to the twin's request: the case's
 * `_case.twin` and the twin's `_case.input` are the same key when the twin is the one that
 * decided the case (as the run's ValidTwins cache them: by what the twin sends, its account and
 * ref_id aside). The key is an HMAC under a random salt of the run, kept nowhere: it links, and
 * says nothing of the values sent (a redacted bundle keeps no digest that confirms a guess).
 * A HAR replay (src/run/har-replay.ts) takes the twin's verdict from it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { TestCase } from '../../core/case.ts';
import { twinLabel } from '../../rules/cases/twins.ts';
import { RUN_TAG_KEY } from '../../engine/ref-ids.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The link key of a case (its twin's, on the case; its own, on a twin). */
export type TwinLinker = (c: TestCase) => string;

/**
 * What a twin sends that its control already said: the body without what preparing it for the
 * target adds (its ref_id, the run tag in its metadata, the digits of its own government id:
 * engine/ref-ids.ts stamp).
 */
function unstamped(body: unknown): unknown {
  if (!isObject(body)) return body;
  const { ref_id: _refId, ...rest } = body;
  const metadata = isObject(rest.metadata) ? Object.fromEntries(Object.entries(rest.metadata).filter(([k]) => k !== RUN_TAG_KEY)) : rest.metadata;
  const person = rest.person_details;
  const shaped = isObject(person) && typeof person.cip_id === 'string' ? { ...person, cip_id: person.cip_id.replace(/\d/g, '#') } : person;
  // The tag alone in metadata the control had none of: as absent.
  const keptMetadata = isObject(metadata) && Object.keys(metadata).length === 0 ? undefined : metadata;
  return { ...rest, metadata: keptMetadata, ...(person !== undefined ? { person_details: shaped } : {}) };
}

/** A linker with a salt of its own (one per HAR file). */
export function twinLinker(salt: Buffer = randomBytes(16)): TwinLinker {
  return (c) => {
    const sent = JSON.stringify([c.operation, c.method ?? null, c.auth ?? null, c.rawBody ?? null, unstamped(c.body) ?? null]);
    return createHmac('sha256', salt).update(sent).digest('base64url').slice(0, 16);
  };
}

/** The link fields of a case's HAR entry: `twin` when it has a valid twin, `input` when it is one. */
export function twinLinks(c: TestCase, link: TwinLinker | undefined): { twin?: string; input?: string } {
  if (!link) return {};
  return { ...(c.control ? { twin: link(c.control) } : {}), ...(twinLabel(c.label) === c.label ? { input: link(c) } : {}) };
}

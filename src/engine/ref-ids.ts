import { createHash, randomBytes } from 'node:crypto';
import type { TestCase } from '../core/case.ts';
import { OPERATIONS } from '../core/operations.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';
import { metadataDescription } from '../rules/open-points/cases.ts';

/**
 * Every ref_id of a run carries the run tag, so repeated runs against one sandbox never collide
 * and a run's records can be found there (search for the tag).
 */
export class RefIds {
  readonly runTag: string;
  private counter = 0;

  constructor(seed: number) {
    this.runTag = `conformance-${seed.toString(36)}-${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
  }

  next(): string {
    this.counter += 1;
    return `${this.runTag}-${this.counter}`;
  }

  /**
   * A copy of an identity case whose object body carries a fresh ref_id (unless it is a wrong-type
   * probe of ref_id), and a government id of its own: a target may refuse a second identity with
   * the same one (an open point), which only the uniqueness probes ask.
   */
  stamp(testCase: TestCase, refId: string = this.next()): TestCase {
    if (!OPERATIONS[testCase.operation].stampsRefId || !isObject(testCase.body)) return testCase;
    const tagged = this.tagged(testCase);
    if (testCase.body.ref_id !== undefined && typeof testCase.body.ref_id !== 'string') return tagged;
    const body = testCase.open?.kind === 'uniqueness' ? tagged.body : withOwnGovernmentId(tagged.body as Record<string, unknown>, refId);
    return { ...tagged, body: { ...(body as Record<string, unknown>), ref_id: refId } };
  }

  /**
   * The case with the run tag in its top-level metadata too (RUN_TAG_KEY), so that a sandbox
   * search by metadata finds the run's identities. Not where metadata is of a wrong type on
   * purpose. An open case on that metadata describes what it now sends.
   */
  private tagged(testCase: TestCase): TestCase {
    const body = testCase.body as Record<string, unknown>;
    if (body.metadata !== undefined && !isObject(body.metadata)) return testCase;
    // Object.fromEntries keeps a "__proto__" key of a generated pair a plain key.
    const metadata = Object.fromEntries([...Object.entries(body.metadata ?? {}), [RUN_TAG_KEY, this.runTag]]);
    const open = testCase.open?.field === 'metadata' ? { open: { ...testCase.open, value: metadataDescription(metadata) } } : {};
    return { ...testCase, ...open, body: { ...body, metadata } };
  }
}

/** The metadata key of the run tag in every identity the run creates. */
export const RUN_TAG_KEY = 'conformance_run';

/**
 * The body with the digits of its cip_id replaced by digits of the ref_id's hash, the layout kept
 * (123-45-6789 stays ddd-dd-dddd) and its leading zeros too (an open case sends them): one
 * ref_id, one government id, so a repeat stays a repeat.
 */
function withOwnGovernmentId(body: Record<string, unknown>, refId: string): Record<string, unknown> {
  const person = body.person_details;
  if (!isObject(person) || typeof person.cip_id !== 'string' || !/\d/.test(person.cip_id)) return body;
  const digits = BigInt(`0x${createHash('sha256').update(refId).digest('hex')}`)
    .toString()
    .slice(-20);
  let i = 0;
  const zeros = /^0*/.exec(person.cip_id)![0];
  const rest = person.cip_id.slice(zeros.length).replace(/\d/g, () => digits[i++ % digits.length]);
  // A hash digit 0 first would add a leading zero (or lengthen those sent): 1 instead, so that
  // stamping a stamped body with its own ref_id gives it back (a repeat sends the same cip_id).
  const cipId = zeros + rest.replace(/^0/, '1');
  return { ...body, person_details: { ...person, cip_id: cipId } };
}

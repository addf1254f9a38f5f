import { randomBytes } from 'node:crypto';
import type { TestCase } from '../core/case.ts';
import { OPERATIONS } from '../core/operations.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';

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

  /** A copy of an identity case whose object body carries a fresh ref_id (unless it is a wrong-type probe of ref_id). */
  stamp(testCase: TestCase, refId: string = this.next()): TestCase {
    if (!OPERATIONS[testCase.operation].stampsRefId || !isObject(testCase.body)) return testCase;
    if (testCase.body.ref_id !== undefined && typeof testCase.body.ref_id !== 'string') return testCase;
    return { ...testCase, body: { ...testCase.body, ref_id: refId } };
  }
}

/**
 * The ref_ids of a HAR sent again (issue 31): a live target still holds the identities the recorded
 * run made, so a recorded ref_id sent again is a repeat (409 "ref_id is already used" on a
 * faithful target) and every create would judge the wrong thing. Each create goes out with a
 * fresh ref_id instead, and the relations between the recorded ones kept: the same recorded ref_id
 * gets the same fresh one (a repeat stays a repeat, a concurrent round one ref_id), one in the
 * other letter case gets the fresh one in the other letter case. The run's tag is swapped for the
 * replay's own (engine/ref-ids.ts), so a recorded `<tag>-17` becomes `<new tag>-17`; a ref_id
 * without the tag (a HAR of another tool) gets a fresh one of its own. The case is stamped as the
 * run stamps it: the new tag in its metadata, a government id of its own drawn from its ref_id.
 */
import type { TestCase } from '../core/case.ts';
import { OPERATIONS } from '../core/operations.ts';
import { RefIds, RUN_TAG_KEY } from '../engine/ref-ids.ts';
import { isObject } from '../rules/checks/exchange-facts.ts';
import { otherCase } from '../rules/create-identity/ref-id-scenarios.ts';

export class FreshRefIds {
  private readonly refIds: RefIds;
  /** Each recorded run tag and the tag that stands for it. */
  private readonly tags = new Map<string, string>();
  /** Recorded ref_ids without a run tag and their fresh ones. */
  private readonly others = new Map<string, string>();

  constructor(seed = 0) {
    this.refIds = new RefIds(seed);
  }

  /** The case with a fresh ref_id (and what the run stamps with one); any other case as recorded. */
  restamp(testCase: TestCase): TestCase {
    const body = testCase.body;
    if (!OPERATIONS[testCase.operation].stampsRefId || !isObject(body) || typeof body.ref_id !== 'string') return testCase;
    const tag = isObject(body.metadata) && typeof body.metadata[RUN_TAG_KEY] === 'string' ? body.metadata[RUN_TAG_KEY] : undefined;
    return this.refIds.stamp(testCase, this.fresh(body.ref_id, tag));
  }

  /** The fresh ref_id that stands for a recorded one. */
  private fresh(recorded: string, tag: string | undefined): string {
    if (tag) {
      const replacement = this.tagFor(tag);
      if (recorded.startsWith(tag)) return replacement + recorded.slice(tag.length);
      if (recorded.startsWith(otherCase(tag))) return otherCase(replacement) + recorded.slice(tag.length);
    }
    const known = this.others.get(recorded) ?? (this.others.has(otherCase(recorded)) ? otherCase(this.others.get(otherCase(recorded))!) : undefined);
    const fresh = known ?? this.refIds.next();
    this.others.set(recorded, fresh);
    return fresh;
  }

  /** The replay's tag for a recorded one: its own, then numbered for a HAR with several runs' tags. */
  private tagFor(recorded: string): string {
    const known = this.tags.get(recorded);
    if (known) return known;
    const tag = this.tags.size ? `${this.refIds.runTag}-${this.tags.size + 1}` : this.refIds.runTag;
    this.tags.set(recorded, tag);
    return tag;
  }
}

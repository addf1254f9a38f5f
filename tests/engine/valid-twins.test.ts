/** Valid twins, without a server: a refused case's twin is asked once, and its verdict decides whether the case judges its rule. */
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/case.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { InputIds } from '../../src/engine/input-ids.ts';
import { ValidTwins } from '../../src/engine/valid-twins.ts';
import { exchange, identityBody } from '../rules/exchange-builders.ts';

const twin: TestCase = { operation: 'createIdentity', mode: 'valid', label: 'twin', body: { tax_details_not_required: true } };
const invalid = (label: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'invalid',
  violates: 'id.wrong-types-rejected',
  label,
  body: { tax_details_not_required: 'yes' },
  control: twin,
});

function twinsAnswering(status: number, selected = ['id.wrong-types-rejected'], withoutRoom?: (twin: TestCase) => { excused: boolean } | undefined) {
  const sent: TestCase[] = [];
  const judged: Exchange[] = [];
  const twins = new ValidTwins({
    selectedIds: new Set(selected),
    inputIds: new InputIds(),
    send: async (c) => {
      sent.push(c);
      return exchange(c, status, status < 300 ? identityBody() : { error: 'no' });
    },
    prepare: (c) => ({ ...c, label: `${c.label} (prepared)` }),
    markUncounted: () => undefined,
    refusalExplainedByMerge: () => false,
    ...(withoutRoom ? { withoutRoom } : {}),
  });
  const judge = async (e: Exchange) => void judged.push(e);
  return { twins, sent, judged, judge };
}

describe('ValidTwins', () => {
  it('asks the twin of a refused case once, judges it, and remembers that it was accepted', async () => {
    const { twins, sent, judged, judge } = twinsAnswering(201);
    const refused = exchange(invalid('a'), 400, { error: 'bad' });
    expect(twins.refusedWithTwin(refused.testCase, refused)).toBe(true);
    twins.startFor(refused.testCase, refused);
    expect(twins.startedBy(refused.testCase)).toBe(true);
    expect(await twins.accepted(refused.testCase, undefined, judge)).toBe(true);
    // Another case with the same twin: the verdict is known, nothing is sent.
    const again = exchange(invalid('b'), 400, { error: 'bad' });
    twins.startFor(again.testCase, again);
    expect(await twins.accepted(again.testCase, undefined, judge)).toBe(true);
    expect(sent.map((c) => c.label)).toEqual(['twin (prepared)']);
    expect(judged).toHaveLength(1);
  });

  it('sends no twin that no account has room for: under a known merge the case keeps the benefit of the doubt, else it is unjudged', async () => {
    for (const excused of [true, false]) {
      const { twins, sent, judged, judge } = twinsAnswering(201, undefined, () => ({ excused }));
      const refused = exchange(invalid('a'), 400, { error: 'bad' });
      twins.startFor(refused.testCase, refused);
      expect(twins.startedBy(refused.testCase)).toBe(false);
      expect(await twins.accepted(refused.testCase, undefined, judge)).toBe(excused);
      expect(sent).toEqual([]);
      expect(judged).toEqual([]);
    }
  });

  it('takes a twin already under way as it comes, even when the accounts have no room left since', async () => {
    let room = true;
    const { twins, sent, judge } = twinsAnswering(201, undefined, () => (room ? undefined : { excused: false }));
    const refused = exchange(invalid('a'), 400, { error: 'bad' });
    twins.startFor(refused.testCase, refused);
    room = false;
    expect(await twins.accepted(refused.testCase, undefined, judge)).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('a refused twin leaves the case unjudged', async () => {
    const { twins, judge, judged } = twinsAnswering(422);
    const refused = exchange(invalid('a'), 400, { error: 'bad' });
    expect(await twins.accepted(refused.testCase, undefined, judge)).toBe(false);
    expect(judged.map((e) => e.response?.status)).toEqual([422]);
  });

  it('an accepted case, or a case of a rule the run does not judge, asks no twin', () => {
    const { twins, sent } = twinsAnswering(201, ['id.valid-accepted']);
    const refused = exchange(invalid('a'), 400, { error: 'bad' });
    expect(twins.refusedWithTwin(refused.testCase, refused)).toBe(false);
    const selected = twinsAnswering(201);
    const accepted = exchange(invalid('b'), 201, identityBody());
    expect(selected.twins.refusedWithTwin(accepted.testCase, accepted)).toBe(false);
    selected.twins.startFor(accepted.testCase, accepted);
    expect(selected.sent).toEqual([]);
    expect(sent).toEqual([]);
  });
});

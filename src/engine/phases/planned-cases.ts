/**
 * Sends planned cases (a family's examples, or its random cases), `concurrency` at a time, and
 * judges them in plan order (pipeline.ts). The updates of one account never overlap; under merge
 * (or while unknown) every update of the pool depends on what the accounts hold, so they share
 * one lane. A random case that fails a rule is remembered as where that rule's shrink starts. A
 * case that no account has room for (merged metadata) is not sent, nor an open case that would
 * set its own field where the account showed it empty (put-back-fit.ts): its rule is told why.
 */
import { getRule } from '../../core/catalogue.ts';
import type { Exchange } from '../../core/exchange.ts';
import { usesFiatAccount } from '../../core/operations.ts';
import { onAccount, usesPool } from '../account-pool.ts';
import { pipeline, type ItemSource } from '../pipeline.ts';
import type { PlannedCase } from '../planned-case.ts';
import { hasFamily, judgedOnEveryExchange } from '../plan.ts';
import type { RunContext } from '../run-context.ts';
import { twinOptions } from '../exchange-judge.ts';
import { fitToPutBack, unrestorableSubject } from '../restore/put-back-fit.ts';

/** A case not sent, and why. */
interface Unsent {
  unsent: string;
}

export function sendPlanned(context: RunContext, source: ItemSource<PlannedCase>): Promise<void> {
  const { control, pool, twins } = context;
  return pipeline<PlannedCase, Exchange | Unsent>(stamped(context, source), {
    window: context.settings.concurrency ?? 1,
    laneOf: (item) => {
      if (item.account) return `account ${item.account}`;
      if (usesPool(item.testCase)) return 'pool';
      // An update to an id of its own (unknown, malformed): fast-check repeats ids, one at a time too.
      return usesFiatAccount(item.testCase.operation) ? `account ${item.testCase.fiatAccountId}` : undefined;
    },
    start: async (item) => {
      control.checkGoOn();
      // Under merge the account is chosen now, from what the accounts hold after every earlier update.
      if (!item.account && usesPool(item.testCase)) {
        const placed = pool.place(item.testCase);
        if ('unsent' in placed) return placed;
        item.testCase = placed.testCase;
      }
      const start = context.restore?.startState(item.testCase.fiatAccountId ?? '');
      const unrestorable = unrestorableSubject(item.testCase, start);
      if (unrestorable) return { unsent: unrestorable };
      // Fitted here, not only on the wire: the case, its twin and their judging then agree on what was sent.
      item.testCase = fitToPutBack(item.testCase, start);
      const exchange = await context.send(item.testCase);
      twins.startFor(item.testCase, exchange, item.account);
      return exchange;
    },
    judge: (item, result) => ('unsent' in result ? notSent(context, item, result.unsent) : judgePlanned(context, item, result)),
    done: () => control.failedFast,
  });
}

/** The cases of a source, stamped in plan order; under replace each pool case gets the next account of its family. */
function stamped(context: RunContext, source: ItemSource<PlannedCase>): ItemSource<PlannedCase> {
  return {
    async next() {
      const item = await source.next();
      if (!item) return undefined;
      const account = context.pool.planned(item.family, item.testCase);
      const testCase = context.refIds.stamp(onAccount(item.testCase, account));
      return { ...item, testCase, ...(account ? { account } : {}) };
    },
  };
}

/** A case that was not sent judges nothing: its rule keeps the reason, for a shortfall to give. */
async function notSent(context: RunContext, item: PlannedCase, reason: string): Promise<void> {
  const rule = item.family.rule;
  if (!context.selectedIds.has(rule)) return;
  await context.ledger.begin(getRule(rule));
  context.ledger.notSent(rule, reason);
}

async function judgePlanned(context: RunContext, item: PlannedCase, exchange: Exchange): Promise<void> {
  const { ledger, selectedIds, twins } = context;
  const rule = item.family.rule;
  if (selectedIds.has(rule)) await ledger.begin(getRule(rule));
  const path = item.family.arbitrary ? String(item.index) : undefined;
  const twinJudging = twinOptions(item.account, !item.fixed);
  const { failed } = await context.judge.judge(exchange, { ...twinJudging, ...(path ? { path } : {}) });
  // A twin sent for a case that then judged nothing of its rule is still an exchange: judged in its turn.
  if (twins.startedBy(item.testCase)) await twins.accepted(item.testCase, item.account, (twin) => context.judge.judge(twin, twinJudging));
  if (item.fixed) return;
  for (const failedRule of failed) {
    if (!selectedIds.has(failedRule) || context.shrinkFrom.has(failedRule)) continue;
    // A rule with a family shrinks within it; a rule judged on every exchange, from any family.
    if (hasFamily(failedRule) ? failedRule === rule : judgedOnEveryExchange(getRule(failedRule))) context.shrinkFrom.set(failedRule, item);
  }
}

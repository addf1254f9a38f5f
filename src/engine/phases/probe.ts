/**
 * The probe: reads each pool account with an empty update (valid: every field is optional), so
 * the run knows what the accounts hold, that they exist and that the credentials work; then two
 * one-pair updates tell whether the target replaces or merges metadata (section 4.1 allows both)
 * before any refusal has to be read. They reuse keys the account holds where it holds two (a
 * merging target could not take a new key back), so an account with 6 pairs is no obstacle.
 * Under merge a full account refuses fresh keys, and that is no fault.
 */
import type { TestCase } from '../../core/case.ts';
import type { Exchange } from '../../core/exchange.ts';
import { AuthenticationError, UnknownAccountsError, withAnswer } from '../../core/errors.ts';
import { checkServesApi } from '../api-absence.ts';
import type { Phase } from './phase.ts';

export const probe: Phase = {
  name: 'probe',
  async run(context) {
    const { pool, settings } = context;
    const read = (c: TestCase): TestCase => {
      const prepared = context.prepare(c);
      // Every shard reads the accounts; only the first counts those reads as cases.
      return settings.shard && settings.shard.index > 1 ? context.uncounted.add(prepared) : prepared;
    };
    const missing: Exchange[] = [];
    const reads: Exchange[] = [];
    for (const id of pool.ids) {
      const { exchange } = await context.exercise(
        read({ operation: 'updateFiatAccount', mode: 'valid', label: 'empty update (reads the current state)', body: {}, fiatAccountId: id }),
      );
      reads.push(exchange);
      if (exchange.response?.status === 404) missing.push(exchange);
      // The configured credentials refused: every rule would fail or skip for the settings' sake.
      if (exchange.response?.status === 401 || exchange.response?.status === 403) {
        throw withAnswer(
          new AuthenticationError(
            `the target refused the credentials (HTTP ${exchange.response.status} to an empty update of ${id}): check --token or the client credentials`,
          ),
          exchange.response,
        );
      }
    }
    // A base URL that serves no API (HTML, 404/405/501 without JSON everywhere): stop before the cases.
    await checkServesApi(reads, (c) => context.transport.send(c));
    // Every update to such an account would fail a rule for a mistake in the settings, not the target.
    if (missing.length) throw unknownAccounts(missing);
    // Two one-pair updates of one account: the second tells replace from merge by the first's key.
    const { accountId, keys } = context.metadata.semanticsProbe(pool.ids);
    for (const [i, key] of keys.entries()) {
      await context.exercise(
        read({
          operation: 'updateFiatAccount',
          mode: 'valid',
          label: 'one metadata pair (replace or merge?)',
          body: { metadata: { [key]: `v${i + 1}` } },
          fiatAccountId: accountId,
        }),
      );
    }
    pool.inPlanOrder = context.metadata.semantics === 'replace';
  },
};

/** Accounts that answered 404 to an empty update while the base URL serves the API: unknown ids, a configuration mistake. */
function unknownAccounts(missing: Exchange[]): UnknownAccountsError {
  return withAnswer(
    new UnknownAccountsError(
      missing.map((e) => e.testCase.fiatAccountId!),
      missing.map((e) => e.request.url),
    ),
    missing[0].response,
  );
}

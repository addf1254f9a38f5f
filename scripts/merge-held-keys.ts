/**
 * `node --import tsx scripts/merge-held-keys.ts [RUNS]`: figures for issue 29 (point 7), never a
 * timed test. The embedded server under `--reading metadata-update=merge`, two pool accounts that
 * hold 3 and 6 keys of someone else's before the first run, then RUNS consecutive standard runs
 * (default 10) on the same accounts, in both orders of the pool. Per run: the verdict, requests,
 * valid updates, those refused for the pairs their account holds, and the most keys an answer
 * showed.
 */
import type { Exchange } from '../src/core/exchange.ts';
import { runOnce } from '../src/run/orchestrate-run.ts';
import { runConfig } from '../src/run/run-config.ts';
import { createReferenceServer, type ReferenceServer } from '../src/server/server.ts';

const theirs = (prefix: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i + 1}`, 'theirs']));

async function seed(server: ReferenceServer, id: string, metadata: Record<string, string>): Promise<void> {
  const answer = await fetch(`${server.baseUrl}/v2/transfer/fiat-accounts/${id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${server.staticToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata }),
  });
  if (answer.status !== 200) throw new Error(`seeding ${id}: HTTP ${answer.status}`);
}

const keysShown = (e: Exchange): number => {
  const body = e.response?.body as { metadata?: object; fiat_account_owner?: { fiat_network_instructions?: { metadata?: object } } } | undefined;
  const metadata = body?.fiat_account_owner?.fiat_network_instructions?.metadata ?? body?.metadata;
  return metadata && typeof metadata === 'object' ? Object.keys(metadata).length : 0;
};

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 10);
  for (const order of [
    [0, 1],
    [1, 0],
  ]) {
    const server = await createReferenceServer({ reading: { metadataUpdate: 'merge' } });
    const ids = server.fiatAccountIds.slice(0, 2);
    await seed(server, ids[0], theirs('a', 3));
    await seed(server, ids[1], theirs('b', 6));
    console.log(`pool: the account with ${order[0] === 0 ? '3' : '6'} keys first`);
    for (let run = 1; run <= runs; run++) {
      const exchanges: Exchange[] = [];
      const { report } = await runOnce(
        runConfig({
          seed: run,
          profile: 'quick',
          baseUrl: server.baseUrl,
          auth: { kind: 'static', token: server.staticToken },
          fiatAccountIds: order.map((i) => ids[i]),
        }),
        [(event: { type: string; exchange?: Exchange }) => void (event.type === 'exchange' && event.exchange && exchanges.push(event.exchange))],
      );
      const valid = exchanges.filter((e) => e.testCase.operation === 'updateFiatAccount' && e.testCase.mode !== 'invalid');
      const refused = valid.filter((e) => (e.response?.status ?? 0) >= 400 && /pairs/.test(JSON.stringify(e.response?.body ?? '')));
      const most = Math.max(0, ...exchanges.filter((e) => e.testCase.operation === 'updateFiatAccount' && e.response?.status === 200).map(keysShown));
      const short = report.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}`);
      console.log(
        `  run ${run}: ${report.summary.verdict}, ${report.summary.requests} requests, ${valid.length} valid updates, ${refused.length} refused for the pairs held, at most ${most} keys shown${short.length ? `; ${short.join(', ')}` : ''}`,
      );
    }
    await server.close();
  }
}

await main();

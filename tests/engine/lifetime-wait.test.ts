/** --lifetime: the wait at the end of the run ends at an interrupt, and the run ends interrupted (no lifetime repeat sent). */
import { describe, expect, it } from 'vitest';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { runConfig } from '../../src/run/run-config.ts';

describe('the --lifetime wait', () => {
  it('ends at an interrupt: the run stops interrupted instead of waiting out the lifetime', async () => {
    const controller = new AbortController();
    const labels: string[] = [];
    // Ten minutes: a wait that ignored the interrupt would outlast the test's timeout.
    const config = runConfig({ seed: 5, runs: 1, ruleFilter: ['id.ref-id.sequential-duplicate'], lifetimeMs: 600_000 });
    const outcome = await orchestrateRun(config, {
      reports: false,
      signal: controller.signal,
      hooks: {
        listeners: () => ({
          before: [
            (event) => {
              if (event.type !== 'exchange') return;
              labels.push(event.exchange.testCase.label);
              // The last request before the wait: the second repeat at the end of the run.
              if (event.exchange.testCase.label.startsWith('later repeat 2/2 (at the end of the run)')) controller.abort('SIGINT');
            },
          ],
        }),
      },
    });
    expect(outcome.report.stopped).toMatchObject({ kind: 'interrupted' });
    expect(labels.filter((l) => l.startsWith('lifetime repeat'))).toEqual([]);
  });
});

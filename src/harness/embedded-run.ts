/**
 * One harness run against a fresh embedded server with a given reading or fault, in process:
 * what the self-test, the fault-matrix tests and the benchmark are made of.
 */
import { createReferenceServer } from '../server/server.ts';
import type { FaultName } from '../server/faults.ts';
import type { Reading } from '../server/reading.ts';
import { createTransport } from './transport/transport.ts';
import { runConformance, type RunResult } from './runner.ts';
import type { RunListener } from './events.ts';

export interface EmbeddedRunOptions {
  fault?: FaultName;
  reading?: Partial<Reading>;
  runs: number;
  seed: number;
  strict?: boolean;
  ruleFilter?: string[];
  listeners?: RunListener[];
}

export async function runEmbedded(options: EmbeddedRunOptions): Promise<RunResult> {
  const server = await createReferenceServer({ ...(options.reading ? { reading: options.reading } : {}), ...(options.fault ? { fault: options.fault } : {}) });
  try {
    const transport = createTransport({
      baseUrl: server.baseUrl,
      auth: { kind: 'client-credentials', tokenUrl: server.tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret },
      timeoutMs: 10_000,
      rateLimitPerSecond: null,
      concurrency: 10,
      maxRetries: 3,
    });
    await transport.authenticate();
    return await runConformance(
      transport,
      {
        baseUrl: server.baseUrl,
        embedded: true,
        reading: { ...Object.fromEntries(Object.entries(server.reading).map(([k, v]) => [k, String(v)])), ...(options.fault ? { fault: options.fault } : {}) },
        fiatAccountIds: server.fiatAccountIds,
        seed: options.seed,
        profile: 'custom',
        runs: options.runs,
        strict: options.strict ?? false,
        concurrentDuplicates: 10,
        ...(options.ruleFilter ? { ruleFilter: options.ruleFilter } : {}),
      },
      options.listeners ?? [],
    );
  } finally {
    await server.close();
  }
}

/** Reference servers a test file starts, each closed after its test. */
import { afterEach } from 'vitest';
import { type RunConfig, runConfig } from '../../src/run/run-config.ts';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/server/server.ts';

/** A `start` for the calling test file: every server it starts is closed after the test that started it. */
export function startsReferenceServers(): (options?: ReferenceServerOptions) => Promise<ReferenceServer> {
  const started: ReferenceServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const server = await createReferenceServer(options);
    started.push(server);
    return server;
  };
}

/** The run configuration of a small seeded run (seed 3, three random cases a rule) against a reference server's static token and accounts. */
export function referenceRunConfig(server: ReferenceServer, overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfig({
    seed: 3,
    profile: 'custom',
    runs: 3,
    baseUrl: server.baseUrl,
    auth: { kind: 'static', token: server.staticToken },
    fiatAccountIds: server.fiatAccountIds,
    ...overrides,
  });
}

/** Reference servers a test file starts, each closed after its test. */
import { afterEach } from 'vitest';
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

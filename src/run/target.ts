/**
 * The target of a run: a remote base URL with the user's credentials, or the embedded reference
 * server started on a free loopback port (with its reading, fault and variant) when none is given.
 */
import type { RunConfig } from './run-config.ts';
import type { AuthConfig } from '../core/auth-config.ts';
import { createReferenceServer } from '../server/server.ts';
import { FAULTS, type FaultName } from '../server/faults.ts';
import { UsageError } from '../core/errors.ts';

export interface Target {
  baseUrl: string;
  embedded: boolean;
  reading?: Record<string, string>;
  auth: AuthConfig;
  fiatAccountIds: string[];
  /** Credentials the reports must never show. */
  secrets: string[];
  close(): Promise<void>;
}

export async function startTarget(config: Pick<RunConfig, 'baseUrl' | 'auth' | 'fiatAccountIds' | 'fault' | 'reading' | 'strictServer'>): Promise<Target> {
  if (config.baseUrl !== undefined) {
    return {
      baseUrl: config.baseUrl,
      embedded: false,
      auth: config.auth,
      fiatAccountIds: config.fiatAccountIds,
      secrets: authSecrets(config.auth),
      close: async () => {},
    };
  }
  if (config.fault && !FAULTS.some((f) => f.name === config.fault)) {
    throw new UsageError(`unknown fault "${config.fault}"; \`conformance serve --list-faults\` lists them`);
  }
  const server = await createReferenceServer({
    reading: config.reading,
    strict: config.strictServer ?? false,
    ...(config.fault ? { fault: config.fault as FaultName } : {}),
  });
  const auth: AuthConfig = { kind: 'client-credentials', tokenUrl: server.tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret };
  return {
    baseUrl: server.baseUrl,
    embedded: true,
    reading: {
      ...Object.fromEntries(Object.entries(server.reading).map(([k, v]) => [k, String(v)])),
      ...(server.fault ? { fault: server.fault } : {}),
      ...(server.strict ? { server: 'strict' } : {}),
    },
    auth,
    fiatAccountIds: server.fiatAccountIds,
    secrets: [server.clientSecret, server.staticToken],
    close: () => server.close(),
  };
}

function authSecrets(auth: AuthConfig): string[] {
  if (auth.kind === 'static') return [auth.token];
  if (auth.kind === 'client-credentials') return [auth.clientSecret];
  return [];
}

/**
 * The target of a run: a remote base URL with the user's credentials, or the embedded reference
 * server started on a free loopback port (with its reading and fault) when none is given.
 */
import type { RunConfig } from '../config/run-config.ts';
import type { AuthConfig } from './transport/auth-config.ts';
import { createReferenceServer } from '../server/server.ts';
import { FAULTS, type FaultName } from '../server/faults.ts';
import { DEFAULT_READING, type Reading } from '../server/reading.ts';
import { UsageError } from '../cli/io.ts';

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

/** Readings as `key=value` with the serve command's flag names (placement=top, reject-status=422 ...). */
export const READING_KEYS: Record<string, keyof Reading> = {
  placement: 'placement',
  'reject-status': 'rejectStatus',
  'duplicate-ref-id': 'duplicateRefId',
  'created-status': 'createdStatus',
  'metadata-update': 'metadataUpdate',
};

export function parseReading(pairs: Record<string, string>): Partial<Reading> {
  const reading: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(pairs)) {
    const field = READING_KEYS[key];
    if (!field) throw new UsageError(`unknown reading "${key}"; known: ${Object.keys(READING_KEYS).join(', ')}`);
    const allowed = [...new Set([DEFAULT_READING[field], ...readingValues(field)])].map(String);
    if (!allowed.includes(value)) throw new UsageError(`reading ${key} must be one of ${allowed.join(', ')}, got "${value}"`);
    reading[field] = typeof DEFAULT_READING[field] === 'number' ? Number(value) : value;
  }
  return reading as Partial<Reading>;
}

function readingValues(field: keyof Reading): (string | number)[] {
  const values: Record<keyof Reading, (string | number)[]> = {
    placement: ['nested', 'top', 'both'],
    rejectStatus: [400, 422],
    duplicateRefId: ['conflict', 'same'],
    createdStatus: [200, 201],
    metadataUpdate: ['replace', 'merge'],
  };
  return values[field];
}

export async function startTarget(config: Pick<RunConfig, 'baseUrl' | 'auth' | 'fiatAccountIds' | 'fault' | 'reading'>): Promise<Target> {
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
    reading: parseReading(config.reading),
    ...(config.fault ? { fault: config.fault as FaultName } : {}),
  });
  const auth: AuthConfig = { kind: 'client-credentials', tokenUrl: server.tokenUrl, clientId: server.clientId, clientSecret: server.clientSecret };
  return {
    baseUrl: server.baseUrl,
    embedded: true,
    reading: { ...Object.fromEntries(Object.entries(server.reading).map(([k, v]) => [k, String(v)])), ...(server.fault ? { fault: server.fault } : {}) },
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

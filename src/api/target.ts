/**
 * A target to send requests of one's own to: the one the options (or the environment) name, or
 * the embedded reference server started for the purpose, with a client already authenticated.
 */
import { startTarget } from '../run/target.ts';
import { targetTransport } from '../run/prepare-run.ts';
import { resolveOptions, type ConformanceOptions } from './run-conformance.ts';
import type { Client } from './client.ts';

export interface ConnectedTarget {
  baseUrl: string;
  /** True when this is the embedded reference server, started by `connectTarget`. */
  embedded: boolean;
  /** Fiat account ids that exist on the target (the embedded server seeds its own). */
  fiatAccountIds: string[];
  client: Client;
  /** Stops the embedded server when one was started. */
  close(): Promise<void>;
}

/**
 * Connects to the target of `options` (`baseUrl` with credentials and fiat account ids, or from
 * `env` as `conformance run` reads it), or starts the embedded reference server when none is
 * given. The client has the run's transport settings and has fetched its first token.
 */
export async function connectTarget(options: Omit<ConformanceOptions, 'rules' | 'reportDir'> = {}): Promise<ConnectedTarget> {
  const config = resolveOptions(options);
  const target = await startTarget(config);
  try {
    const client = targetTransport(config, target);
    await client.authenticate();
    return { baseUrl: target.baseUrl, embedded: target.embedded, fiatAccountIds: target.fiatAccountIds, client, close: () => target.close() };
  } catch (error) {
    await target.close();
    throw error;
  }
}

/**
 * --state FILE (CONFORMANCE_STATE): the memory of an API user kept between CI runs. A run reads
 * the identities earlier runs created on the same target for the same API user, repeats a few of
 * their ref_ids (rules/create-identity/remembered-identities.ts), then adds its own and writes the
 * file back, atomically, keeping the newest few per API user.
 *
 * ref_id uniqueness is per API user (4.2, 8), so entries are keyed by the target's base URL and a
 * fingerprint of whom the credentials belong to: a digest of the token URL and client id, or of a
 * static token; never the secret or the token itself. A static token that changes every run is
 * another API user to this file: client credentials keep one.
 */
import { createHash } from 'node:crypto';
import type { AuthConfig } from '../core/auth-config.ts';
import { UsageError } from '../core/errors.ts';
import { writeJsonAtomically } from '../core/atomic-write.ts';
import { parseJsonText, readInputFile } from '../core/json-file.ts';
import type { CreatedIdentity } from '../rules/create-identity/created-identities.ts';
import type { IdentityMemory, RememberedIdentity } from '../rules/create-identity/remembered-identities.ts';

export const STATE_KIND = 'conformance-identity-state';
/** Identities kept per API user and target: the newest. */
export const KEEP_PER_USER = 48;

interface StateEntry {
  target: string;
  user: string;
  /** Oldest first. */
  identities: RememberedIdentity[];
}

interface StateFile {
  kind: typeof STATE_KIND;
  version: 1;
  users: StateEntry[];
}

/** Whom the credentials belong to, as a digest: the same client (or static token) gives the same key, the secret never shows. */
export function apiUserKey(auth: AuthConfig): string {
  const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  if (auth.kind === 'client-credentials') return digest(`client\u0000${auth.tokenUrl}\u0000${auth.clientId}`);
  if (auth.kind === 'static') return digest(`token\u0000${auth.token}`);
  return 'anonymous';
}

/** The state of one API user on one target: what earlier runs left, and how this run's identities are written back. */
export interface IdentityState {
  readonly memory: IdentityMemory;
  /** Writes the file with this run's identities (atomically); a line for the run's output. */
  save(secrets: readonly string[]): Promise<string>;
}

/** Reads FILE (absent: a first run), or a UsageError for a file that is not a state file of this tool. */
export async function openIdentityState(
  file: string,
  target: string,
  auth: AuthConfig,
  note: (line: string) => void = () => undefined,
): Promise<IdentityState> {
  const state = await readState(file);
  const user = apiUserKey(auth);
  const own = state.users.find((u) => u.target === target && u.user === user);
  const earlier = own?.identities ?? [];
  const startedAt = new Date().toISOString();
  let forgotten = false;
  let kept: RememberedIdentity[] = [];
  const memory: IdentityMemory = {
    earlier,
    forgotten(line) {
      forgotten = true;
      note(`state: ${line}`);
    },
    keep(created: readonly CreatedIdentity[]) {
      kept = created.map(({ seenAt: _at, ...identity }) => ({ ...identity, runStartedAt: startedAt }));
    },
  };
  return {
    memory,
    async save(secrets) {
      // Forgotten: this run's identities alone, the earlier ones gone from the target (or from its index).
      const identities = [...(forgotten ? [] : earlier), ...kept].slice(-KEEP_PER_USER);
      const users = [...state.users.filter((u) => u !== own), { target, user, identities }];
      await writeJsonAtomically(file, { kind: STATE_KIND, version: 1, users }, secrets);
      return `state: ${file}: ${kept.length} identities of this run kept for later runs (${identities.length} for this API user on ${target})`;
    },
  };
}

/** How many identities earlier runs left for this API user on this target (for `conformance plan`: nothing is written). */
export async function rememberedCount(file: string, target: string, auth: AuthConfig): Promise<number> {
  const state = await readState(file);
  const user = apiUserKey(auth);
  return state.users.find((u) => u.target === target && u.user === user)?.identities.length ?? 0;
}

async function readState(file: string): Promise<StateFile> {
  let text: string;
  try {
    text = await readInputFile(file);
  } catch (error) {
    // A first run: no file yet.
    if (error instanceof UsageError && /ENOENT/.test(error.message)) return { kind: STATE_KIND, version: 1, users: [] };
    throw error;
  }
  const parsed = parseJsonText(text, `the state file ${file}`);
  const why = problemOf(parsed);
  if (why) throw new UsageError(`${file} is not a state file of this tool (${why}): give another file, or delete it to start over`);
  return parsed as StateFile;
}

/** What makes a parsed file no state file of ours, or undefined. */
function problemOf(parsed: unknown): string | undefined {
  if (!isRecord(parsed) || parsed.kind !== STATE_KIND) return `no "kind": "${STATE_KIND}"`;
  if (parsed.version !== 1) return `version ${JSON.stringify(parsed.version)}, this tool reads 1`;
  if (!Array.isArray(parsed.users)) return '"users" is not a list';
  for (const [i, u] of parsed.users.entries()) {
    if (!isRecord(u) || typeof u.target !== 'string' || typeof u.user !== 'string' || !Array.isArray(u.identities)) return `users[${i}] is malformed`;
    const bad = u.identities.findIndex((x) => !isIdentity(x));
    if (bad >= 0) return `users[${i}].identities[${bad}] is malformed`;
  }
  return undefined;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const isIdentity = (x: unknown): boolean =>
  isRecord(x) &&
  ['refId', 'id', 'key', 'runStartedAt'].every((k) => typeof x[k] === 'string') &&
  isRecord(x.data) &&
  x.body !== undefined &&
  (x.createdAt === undefined || typeof x.createdAt === 'string');

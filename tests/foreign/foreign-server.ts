/**
 * A small implementation of the API written independently of src/server (no shared code, no
 * shared schemas), reading the document differently where it allows: top-level placement of
 * status and metadata, 422 for rejections, the same identity back for a used ref_id, 200 for a
 * created identity, metadata merged on update, timestamps with +00:00 offsets, a static token
 * and a token endpoint of its own (client credentials in the form body; a new token each time,
 * token_type "bearer" in lower case, no expires_in, an extra field: RFC 6749 5.1 allows all of it),
 * every token the one API user's. `defect` switches on one deviation, to prove the harness catches it on a foreign target.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';

export type ForeignDefect =
  | 'none'
  | 'counts-utf16'
  | 'second-identity'
  | 'lowercase-status'
  /** After `dieAfter` requests: every socket destroyed, the listener closed. */
  | 'dies-mid-run'
  /** Creates answered with only {id, summary_status}. */
  | 'near-empty-identity'
  /** 422 for any non-ASCII name or an empty address2. */
  | 'refuses-most-creates'
  /** One identity for every create. */
  | 'same-identity'
  /** One owner record behind every account: an update's names show on all of them. */
  | 'one-owner-record'
  /** Owner names answered as sent but kept only in memory of the request: the next answer shows the old ones. */
  | 'owner-names-not-stored'
  /** No defect: the vendor's reading of the update, "Empty strings or null values are ignored". */
  | 'ignores-nulls'
  /** A null owner name in an update is taken and stored: the answers show it as null. */
  | 'writes-nulls'
  /** The token's scopes cover the update only: every create answered 403. */
  | 'create-forbidden'
  /** The token's scopes cover the create only: every update answered 403, naming the scope it lacks (RFC 6750). */
  | 'update-forbidden';

export interface ForeignOptions {
  /** dies-mid-run: the requests answered before it dies (default 150). */
  dieAfter?: number;
}

export interface ForeignServer {
  baseUrl: string;
  token: string;
  /** Client credentials for its token endpoint (`--auth-url`, `--client-id`, `--client-secret`). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  accountIds: string[];
  close(): Promise<void>;
}

/** Outside /v2: the document shows no token endpoint (section 5), every vendor has its own. */
const TOKEN_PATH = '/oauth2/token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isPlainObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const now = () => new Date().toISOString().replace('Z', '+00:00');
/** Each of `keys` absent or a string. */
const strings = (o: Record<string, any>, keys: string[]) => keys.every((k) => o[k] === undefined || typeof o[k] === 'string');
const isAddress = (a: unknown) => isPlainObject(a) && strings(a, ['country', 'address1', 'address2', 'city', 'province', 'zip_code']);
const isWire = (w: unknown) =>
  isPlainObject(w) &&
  strings(w, ['account_number']) &&
  (w.fiat_account_owner_address === undefined || isAddress(w.fiat_account_owner_address)) &&
  (w.routing_details === undefined ||
    (isPlainObject(w.routing_details) &&
      strings(w.routing_details, ['routing_number_type', 'routing_number', 'bank_name']) &&
      (w.routing_details.bank_address === undefined || isAddress(w.routing_details.bank_address))));

/** An update without its null and empty-string members (the metadata pairs kept as sent). */
function withoutNullsOrEmpty(value: Record<string, any>, inMetadata = false): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!inMetadata && (v === null || v === '')) continue;
    out[k] = isPlainObject(v) && !inMetadata ? withoutNullsOrEmpty(v, k === 'metadata') : v;
  }
  return out;
}

export async function startForeignServer(defect: ForeignDefect = 'none', options: ForeignOptions = {}): Promise<ForeignServer> {
  const token = randomUUID();
  const clientId = 'foreign-client';
  const clientSecret = randomUUID();
  // Every token it issued: all of them the one client's, as the static token is.
  const issued = new Set<string>([token]);
  const accounts = new Map<string, { created: string; updated: string; first: string | null; last: string | null; metadata: Record<string, string> }>();
  for (let i = 0; i < 2; i++) accounts.set(randomUUID(), { created: now(), updated: now(), first: 'A', last: 'B', metadata: {} });
  const identitiesByRef = new Map<string, Record<string, unknown>>();
  const length = (s: string) => (defect === 'counts-utf16' ? s.length : [...s].length);
  let onlyIdentity: Record<string, unknown> | undefined;
  const sockets = new Set<Socket>();
  let requests = 0;

  const server = http.createServer((req, res) => {
    if (defect === 'dies-mid-run' && ++requests > (options.dieAfter ?? 150)) {
      for (const socket of sockets) socket.destroy();
      server.close();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const reject = (message: string) => reply(422, { error: message });
      if (req.url === TOKEN_PATH && req.method === 'POST') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return reply(400, { error: 'invalid_client' });
        const fresh = randomUUID();
        issued.add(fresh);
        return reply(200, { access_token: fresh, token_type: 'bearer', issued_by: 'foreign' }, { 'cache-control': 'no-store' });
      }
      // RFC 6750 section 3: a 401 names the Bearer scheme (here in capitals and with no parameters).
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer === undefined || !issued.has(bearer)) return reply(401, { error: 'unauthorized' }, { 'www-authenticate': 'BEARER' });
      const answerOf = (
        id: string,
        stored: { created: string; updated: string; first: string | null; last: string | null; metadata: Record<string, string> },
      ) => ({
        id,
        status: defect === 'lowercase-status' ? 'pending' : 'PENDING',
        metadata: stored.metadata,
        created_at: stored.created,
        updated_at: stored.updated,
        fiat_network_instructions: { wire: { account_number: '1' } },
        fiat_account_owner: { person_details: { first_name: stored.first, last_name: stored.last } },
      });
      // The get operation of fiat accounts (section 1 names it), as a vendor has it.
      const read = /^\/v2\/transfer\/fiat-accounts\/([^/?]+)$/.exec(req.url ?? '');
      if (read && req.method === 'GET') {
        const stored = accounts.get(decodeURIComponent(read[1]));
        return stored ? reply(200, answerOf(decodeURIComponent(read[1]), stored)) : reply(404, { error: 'not found' });
      }
      let body: any;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return reply(400, { error: 'bad json' });
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return reject('body must be an object');
      const path = req.url ?? '';
      if (defect === 'create-forbidden' && path === '/v2/identity/identities' && req.method === 'POST') return reply(403, { error: 'forbidden' });
      if (defect === 'update-forbidden' && path.startsWith('/v2/transfer/fiat-accounts/') && req.method === 'PUT')
        return reply(403, { error: 'insufficient_scope' }, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="transfer:write"' });
      const account = /^\/v2\/transfer\/fiat-accounts\/([^/?]+)$/.exec(path);
      if (account && req.method === 'PUT') {
        const id = decodeURIComponent(account[1]);
        if (!UUID.test(id)) return reject('bad id');
        const stored = accounts.get(id);
        if (!stored) return reply(404, { error: 'not found' });
        if (defect === 'ignores-nulls') body = withoutNullsOrEmpty(body);
        const owner = body.fiat_account_owner;
        if (owner !== undefined && (typeof owner !== 'object' || owner === null || Array.isArray(owner))) return reject('owner');
        const person = owner?.person_details;
        if (person !== undefined && (typeof person !== 'object' || person === null || Array.isArray(person))) return reject('person');
        const nullTaken = (v: unknown) => v === null && defect === 'writes-nulls';
        for (const k of ['first_name', 'last_name']) if (person?.[k] !== undefined && typeof person[k] !== 'string' && !nullTaken(person[k])) return reject(k);
        const instructions = body.fiat_network_instructions;
        if (instructions !== undefined && !isPlainObject(instructions)) return reject('instructions');
        if (instructions?.wire !== undefined && !isWire(instructions.wire)) return reject('wire');
        if (
          instructions !== undefined &&
          (!strings(instructions, ['status']) || (instructions.metadata !== undefined && !isPlainObject(instructions.metadata)))
        )
          return reject('instructions');
        let metadata = stored.metadata;
        if (body.metadata !== undefined) {
          const m = body.metadata;
          if (typeof m !== 'object' || m === null || Array.isArray(m)) return reject('metadata');
          for (const [k, v] of Object.entries(m)) if (typeof v !== 'string' || length(k) > 100 || length(v) > 100) return reject('metadata entry');
          metadata = { ...stored.metadata, ...(m as Record<string, string>) };
          if (Object.keys(m).length > 6 || Object.keys(metadata).length > 6) return reject('too many pairs');
        }
        stored.metadata = metadata;
        const [first, last] = [
          person?.first_name === undefined ? stored.first : person.first_name,
          person?.last_name === undefined ? stored.last : person.last_name,
        ];
        if (defect !== 'owner-names-not-stored') [stored.first, stored.last] = [first, last];
        if (defect === 'one-owner-record') for (const other of accounts.values()) [other.first, other.last] = [first, last];
        stored.updated = now();
        // The answer echoes the names sent, stored or not (the owner-names-not-stored defect).
        return reply(200, { ...answerOf(id, stored), fiat_account_owner: { person_details: { first_name: first, last_name: last } } });
      }
      if (path === '/v2/identity/identities' && req.method === 'POST') {
        if (body.tax_details_not_required !== undefined && typeof body.tax_details_not_required !== 'boolean') return reject('tax flag');
        if (body.tax_details !== undefined && !Array.isArray(body.tax_details)) return reject('tax_details');
        if (body.tax_details === undefined && body.tax_details_not_required !== true) return reject('tax_details required');
        if (body.is_merchant !== undefined && typeof body.is_merchant !== 'boolean') return reject('is_merchant');
        if (body.ref_id !== undefined && typeof body.ref_id !== 'string') return reject('ref_id');
        for (const k of ['metadata', 'institution_details', 'customer_due_diligence']) if (body[k] !== undefined && !isPlainObject(body[k])) return reject(k);
        if (body.institution_members !== undefined && !(Array.isArray(body.institution_members) && body.institution_members.every(isPlainObject)))
          return reject('members');
        for (const entry of body.tax_details ?? []) {
          if (!isPlainObject(entry) || ['tax_payer_country', 'tax_payer_id'].some((k) => entry[k] !== undefined && typeof entry[k] !== 'string'))
            return reject('tax entry');
        }
        const person = body.person_details;
        if (person !== undefined && (typeof person !== 'object' || person === null || Array.isArray(person))) return reject('person');
        for (const [k, v] of Object.entries(person ?? {})) {
          if (k === 'address' ? !isAddress(v) : k === 'metadata' ? !isPlainObject(v) : typeof v !== 'string') return reject(k);
        }
        let dob: string | undefined;
        if (person?.date_of_birth !== undefined) {
          const m = DATE.exec(person.date_of_birth);
          if (!m) return reject('date_of_birth');
          const d = new Date(0);
          d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]); // not Date.UTC: it reads years 0-99 as 1900-1999
          if (d.getUTCDate() !== +m[3] || d.getUTCMonth() !== +m[2] - 1) return reject('date_of_birth');
          dob = `${person.date_of_birth}T00:00:00+00:00`;
        }
        if (person?.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(person.email)) return reject('email');
        if (person?.passthrough_verified_at !== undefined && Number.isNaN(Date.parse(person.passthrough_verified_at))) return reject('verified_at');
        if (defect === 'refuses-most-creates') {
          const names = [person?.first_name, person?.last_name].filter((n): n is string => typeof n === 'string');
          if (names.some((n) => /[^\x00-\x7f]/.test(n)) || person?.address?.address2 === '') return reject('first_name must be ASCII');
        }
        if (defect === 'same-identity' && onlyIdentity) return reply(200, onlyIdentity);
        const ref = body.ref_id as string | undefined;
        if (ref !== undefined && identitiesByRef.has(ref) && defect !== 'second-identity') return reply(200, identitiesByRef.get(ref));
        const identity: Record<string, unknown> = {
          ...body,
          id: randomUUID(),
          type: person ? 'PERSON' : 'INSTITUTION',
          status: 'PENDING',
          summary_status: 'PENDING',
          is_merchant: body.is_merchant ?? false,
          created_at: now(),
          person_details: person && {
            ...person,
            ...(dob ? { date_of_birth: dob } : {}),
            ...(person.cip_id !== undefined ? { govt_id: person.cip_id } : {}),
            ...(person.cip_id_type !== undefined ? { govt_id_type: person.cip_id_type } : {}),
          },
        };
        const answer = defect === 'near-empty-identity' ? { id: identity.id, summary_status: 'PENDING' } : identity;
        if (ref !== undefined) identitiesByRef.set(ref, answer);
        onlyIdentity ??= answer;
        return reply(200, answer);
      }
      reply(404, { error: 'no route' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    tokenUrl: `http://127.0.0.1:${port}${TOKEN_PATH}`,
    clientId,
    clientSecret,
    accountIds: [...accounts.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve()); // also when it died and closed already
        server.closeIdleConnections();
      }),
  };
}

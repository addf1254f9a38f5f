/**
 * A mock like the ones built from a vendor's OpenAPI document, in front of the faithful foreign
 * server: every refusal carries the same canned error body, a text copied from the vendor's
 * examples that has nothing to do with the request, and the real reason sits elsewhere, in a
 * `validation` array of the body and in an `sl-violations` header (a validating proxy's JSON
 * list). Its successes carry an `sl-violations` header too, complaining about something of the
 * response that no rule judges. Otherwise it answers as the foreign server does.
 *
 * `requireAddressCountry`: it also refuses an identity whose address lacks `country`, as the
 * vendor's document requires (the API document makes every field optional): a refusal of a valid
 * request, whose real reason the harness must quote.
 */
import http from 'node:http';
import { listenOnLoopback } from './loopback-listen.ts';
import { startForeignServer, type ForeignDefect, type ForeignServer } from './foreign-server.ts';

/** The vendor's example error: the mock answers it to every refusal. */
export const CANNED_ERROR = { code: 'BadRequest', message: 'fiat_account_owner cannot be changed from person to institution' } as const;
/** What the mock's validation says of an address without country. */
export const COUNTRY_REQUIRED = { field: 'person_details.address.country', message: 'is required' } as const;
/** The complaint about the response that every success carries in its sl-violations header. */
export const UNRELATED_RESPONSE_VIOLATION = "must have required property 'ref_id'";

export interface CannedErrorMockOptions {
  requireAddressCountry?: boolean;
  /** A deviation of the foreign server behind the mock. */
  defect?: ForeignDefect;
}

export interface CannedErrorMock {
  baseUrl: string;
  token: string;
  accountIds: string[];
  close(): Promise<void>;
}

interface Violation {
  field: string;
  message: string;
}

const violationHeader = (location: string[], message: string): string => JSON.stringify([{ location, severity: 'Error', code: 'validation', message }]);

/** The mock's own refusal: the canned body, the real reason in `validation` and in the header. */
function refuse(res: http.ServerResponse, status: number, violation: Violation, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'sl-violations': violationHeader(['request', 'body', ...violation.field.split('.')], violation.message),
  });
  res.end(JSON.stringify({ ...CANNED_ERROR, validation: [violation] }));
}

/** An identity create whose person_details.address lacks country. */
function lacksCountry(method: string | undefined, url: string | undefined, raw: Buffer): boolean {
  if (method !== 'POST' || url !== '/v2/identity/identities') return false;
  try {
    const address = JSON.parse(raw.toString('utf8'))?.person_details?.address;
    return typeof address === 'object' && address !== null && !Array.isArray(address) && address.country === undefined;
  } catch {
    return false;
  }
}

/** The backend's answer, with its refusals re-dressed as the mock's. */
function relay(up: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  up.on('data', (c: Buffer) => chunks.push(c));
  up.on('end', () => {
    const status = up.statusCode ?? 502;
    const raw = Buffer.concat(chunks);
    const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = up.headers;
    if (status >= 400 && status < 500) {
      let reason = 'is invalid';
      try {
        reason = String(JSON.parse(raw.toString('utf8')).error ?? reason);
      } catch {
        // not JSON: the generic reason
      }
      return refuse(res, status, { field: 'body', message: reason }, headers);
    }
    res.writeHead(status, { ...headers, 'sl-violations': violationHeader(['response', 'body'], UNRELATED_RESPONSE_VIOLATION) });
    res.end(raw);
  });
}

export async function startCannedErrorMock(options: CannedErrorMockOptions = {}): Promise<CannedErrorMock> {
  const backend: ForeignServer = await startForeignServer(options.defect ?? 'none');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const authorized = req.headers.authorization === `Bearer ${backend.token}`;
      if (authorized && options.requireAddressCountry && lacksCountry(req.method, req.url, raw)) return refuse(res, 400, COUNTRY_REQUIRED);
      const forward = http.request(`${backend.baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (up) => relay(up, res));
      forward.on('error', () => res.destroy());
      forward.end(raw);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    baseUrl: listening.url,
    token: backend.token,
    accountIds: backend.accountIds,
    close: async () => {
      await listening.close();
      await backend.close();
    },
  };
}

/**
 * Whether the base URL serves the API at all, asked once before any case (docs/design.md 4.8):
 * a static file server, a web front end or a wrong path prefix answers the documented paths with
 * HTML, or with 404, 405 or 501 and no JSON. Such a run would send hundreds of requests and call
 * a misconfiguration a non-conformant API, so it stops at once with exit 2 and what to check.
 *
 * "This account is unknown" is another answer: a JSON 404 to the fiat account's path while the
 * create path answers as an API does. That is a wrong --fiat-account-id, said by its own error.
 */
import type { Exchange, RecordedResponse } from '../core/exchange.ts';
import { RouteNotFoundError, withAnswer } from '../core/errors.ts';
import { routeProbe } from '../rules/create-identity/route-probe.ts';
import type { TestCase } from '../core/case.ts';

/** Statuses by which a server says "no such route or method" (a JSON body may still be the API's). */
export const NO_ROUTE: ReadonlySet<number> = new Set([404, 405, 501]);

const contentType = (r: RecordedResponse): string => (r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/** A page, not data: an HTML content type, or a body that opens with a tag. */
const isHtml = (r: RecordedResponse): boolean => contentType(r).includes('html') || /^\s*</.test(r.rawBody);

/**
 * Why an answer cannot come from the API at a documented path ("HTTP 501, text/html"), or
 * undefined when it may: no answer at all is another matter (the target is unreachable).
 */
export function notFromTheApi(e: Pick<Exchange, 'response'>): string | undefined {
  const r = e.response;
  if (!r) return undefined;
  const type = contentType(r) || 'no content type';
  if (isHtml(r)) return `HTTP ${r.status}, an HTML page (${type})`;
  if (NO_ROUTE.has(r.status) && !r.json) return `HTTP ${r.status}, not JSON (${type})`;
  return undefined;
}

/** The create path has no id in it: any 404 there means the route is not there. */
const createRouteMissing = (e: Exchange): string | undefined => notFromTheApi(e) ?? (e.response?.status === 404 ? 'HTTP 404' : undefined);

/** A read of a fiat account says nothing of the API: not its answer, or a 404 (the id may be unknown). */
const readSaysNothing = (e: Exchange): boolean => notFromTheApi(e) !== undefined || e.response?.status === 404;

/**
 * After the reads of the pool accounts (`reads`): when none of them is an answer of the API, one
 * create with an empty body (invalid by the tax rule, so nothing is created) tells whether the
 * base URL serves the API; throws RouteNotFoundError when it does not either. `send` sends that
 * create (and records it); it is sent only when every read says nothing, so a working target pays nothing.
 */
export async function checkServesApi(reads: readonly Exchange[], send: (c: TestCase) => Promise<Exchange>, extra: Partial<TestCase> = {}): Promise<void> {
  if (!reads.length || !reads.every((e) => e.response && readSaysNothing(e))) return;
  const create = await send(routeProbe(extra));
  const missing = createRouteMissing(create);
  if (!missing) return;
  const answered = (e: Exchange, why: string) => `${e.request.method} ${e.request.url} answered ${why}`;
  const tried = [...reads.map((e) => answered(e, notFromTheApi(e) ?? `HTTP ${e.response!.status}`)), answered(create, missing)];
  throw withAnswer(new RouteNotFoundError(tried, baseUrlHint(create.request.url)), create.response);
}

/**
 * What to check in the base URL, from the URL the create went to: a /v2 already in it, another
 * path prefix, or none at all.
 */
export function baseUrlHint(createUrl: string): string {
  const url = new URL(createUrl);
  const base = url.pathname.replace(/\/v2\/identity\/identities$/, '');
  const host = `${url.protocol}//${url.host}`;
  if (/(^|\/)v2(\/|$)/i.test(base)) return `/v2 is part of the document's paths: give the host only (${host}) or the prefix before /v2`;
  if (base && base !== '/') return `the document's paths (/v2/...) are appended to it: is ${base} the API's path prefix? if not, give the host only (${host})`;
  return `the document's paths (/v2/...) are appended to it; if the API sits under a path prefix (an API gateway's stage, /api), add it, e.g. ${host}/api`;
}

/**
 * Error answers as problem details (RFC 9457, application/problem+json). The document shows no
 * error body (section 7), so this is the server's own choice; the harness never judges it.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { sendJson } from './http-io.ts';

/** One reason a request was refused, pointing into the body like an ajv error. */
export interface ProblemError {
  instancePath: string;
  message: string;
}

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ProblemError[];
}

/** The problem body for a status: `about:blank` with the standard reason phrase as title. */
export function problemBody(status: number, detail: string, errors?: ProblemError[]): ProblemDetails {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, ...(errors?.length ? { errors } : {}) };
}

/** Sends a problem answer. `detail` must never hold a credential. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  options: { errors?: ProblemError[]; headers?: Record<string, string> } = {},
): void {
  sendJson(res, status, problemBody(status, detail, options.errors), 'application/problem+json', options.headers);
}

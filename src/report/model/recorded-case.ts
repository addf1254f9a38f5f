/**
 * The case a recorded failure came from (for replay): the same operation, intent, body and path
 * parameters. What a schema cannot say about a report is checked here: the request URL must parse
 * and its path must be the path of the case's operation.
 */
import type { TestCase } from '../../core/case.ts';
import type { RuleId } from '../../core/catalogue.ts';
import { describeOperation, matchOperationPath, OPERATIONS } from '../../core/operations.ts';
import type { ReportFailure } from './model.ts';

/** The case, or the one-line reason it cannot be rebuilt (of the request URL). */
export function recordedCase(failure: ReportFailure): TestCase | { problem: string } {
  const { request } = failure;
  const { operation } = failure.case;
  let pathname: string;
  try {
    pathname = new URL(request.url).pathname;
  } catch {
    return { problem: `${JSON.stringify(request.url)} is not a URL` };
  }
  let pathParameters: ReturnType<typeof matchOperationPath>;
  try {
    pathParameters = matchOperationPath(pathname, operation);
  } catch {
    // decodeURIComponent: a % not followed by two hex digits of UTF-8.
    return { problem: `${JSON.stringify(request.url)} has a malformed percent-encoding in its path` };
  }
  if (!pathParameters) return { problem: `${JSON.stringify(request.url)} is not a URL of ${operation} (${describeOperation(operation)})` };
  return {
    operation,
    mode: failure.case.mode as TestCase['mode'],
    label: failure.case.label,
    ...(failure.case.violates ? { violates: failure.case.violates as RuleId } : {}),
    ...(failure.case.exercises ? { exercises: failure.case.exercises as RuleId } : {}),
    ...(failure.case.auth ? { auth: failure.case.auth } : {}),
    // The probe keeps a replayed open case open: its refusal is no failure there either.
    ...(failure.case.open ? { open: failure.case.open } : {}),
    // A combination keeps its values: a refusal of the valid one is the target's limit there too.
    ...(failure.case.combined ? { combined: failure.case.combined } : {}),
    // A case about HTTP around the operation keeps its rule, and the method it went with.
    ...(failure.case.around ? { around: failure.case.around as RuleId } : {}),
    ...(request.method !== OPERATIONS[operation].method ? { method: request.method } : {}),
    ...(request.rawBody !== undefined ? { rawBody: request.rawBody } : { body: request.body }),
    // No body, yet labelled JSON: the body-less JSON request (http-around/cases.ts).
    ...(request.rawBody === undefined && request.body === undefined && jsonLabelled(request.headers) ? { bodylessJson: true as const } : {}),
    ...pathParameters,
  };
}

const jsonLabelled = (headers: Record<string, string> | undefined): boolean =>
  Object.entries(headers ?? {}).some(([name, value]) => name.toLowerCase() === 'content-type' && /^application\/json\b/i.test(value));

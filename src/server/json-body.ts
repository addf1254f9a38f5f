/** Turning a request body into a JSON object, or saying precisely why it is not one. */

/** Bodies nested deeper than this are refused before anything walks them recursively. */
export const MAX_JSON_DEPTH = 64;

export type JsonBodyResult =
  | { kind: 'object'; body: Record<string, unknown>; text: string }
  | { kind: 'malformed'; detail: string; text?: string }
  | { kind: 'not-object'; detail: string; text: string }
  | { kind: 'too-deep'; detail: string; text: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Body text as UTF-8, or undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses the body; the Content-Type is not required to be JSON as long as the text parses. */
export function parseJsonObject(bytes: Uint8Array): JsonBodyResult {
  const text = decodeUtf8(bytes);
  if (text === undefined) return { kind: 'malformed', detail: 'the request body is not valid UTF-8' };
  if (text.trim() === '') return { kind: 'malformed', detail: 'the request body is empty; send a JSON object', text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'malformed', detail: `the request body is not valid JSON: ${(error as Error).message}`, text };
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) return { kind: 'too-deep', detail: `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`, text };
  if (!isPlainObject(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { kind: 'not-object', detail: `the request body must be a JSON object, not ${kind}`, text };
  }
  return { kind: 'object', body: value, text };
}

/** Iterative, so a hostile body cannot exhaust the stack here. */
function depthExceeds(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

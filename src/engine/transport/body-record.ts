/**
 * The body of a response as the checks see it: text (RFC 8259 8.1 asks for UTF-8), and the JSON
 * value it holds, parsed once. A body cut at the cap is never parsed: its end is missing, so it
 * is `json: false` whatever its first bytes say.
 */
import type { RecordedResponse } from '../../core/exchange.ts';
import type { BodyRead } from './body-stream.ts';

type BodyFields = Pick<RecordedResponse, 'rawBody' | 'json' | 'body' | 'truncated' | 'invalidUtf8'>;

// ignoreBOM keeps a byte order mark in rawBody, as it came; JSON.parse below skips it.
const decoder = (fatal: boolean) => new TextDecoder('utf-8', { fatal, ignoreBOM: true });

export function recordBody({ bytes, receivedBytes }: BodyRead): BodyFields {
  const truncated = receivedBytes > bytes.length;
  let rawBody: string;
  let invalidUtf8 = false;
  try {
    // A cut body may end inside a character: `stream` leaves that tail out instead of calling it invalid.
    rawBody = decoder(true).decode(bytes, { stream: truncated });
  } catch {
    rawBody = decoder(false).decode(bytes, { stream: truncated });
    invalidUtf8 = true;
  }
  const fields: BodyFields = {
    rawBody,
    json: false,
    ...(truncated ? { truncated: { keptBytes: bytes.length, receivedBytes } } : {}),
    ...(invalidUtf8 ? { invalidUtf8 } : {}),
  };
  // Parsed whatever the Content-Type says: a JSON body with a wrong type is still judged as JSON
  // (status-codes checks look at the header separately); bytes that are not UTF-8 too, as U+FFFD.
  if (!truncated && rawBody.trim() !== '') {
    try {
      // RFC 8259 8.1: a parser may ignore a byte order mark.
      fields.body = JSON.parse(rawBody.charCodeAt(0) === 0xfeff ? rawBody.slice(1) : rawBody);
      fields.json = true;
    } catch {
      // Not JSON: rawBody holds the text, json stays false.
    }
  }
  return fields;
}

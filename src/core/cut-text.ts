/**
 * The first characters of a possibly huge string, as a string of its own. V8 makes `slice` a view
 * that keeps the whole original alive: 64 KiB of evidence cut from a 1 MiB body would hold the
 * megabyte as long as the finding lives.
 */

/** `text` cut to at most `limit` UTF-16 units, never inside a surrogate pair, copied off the original. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  const cut = text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
  // A round trip through UTF-16 bytes is exact for any string and yields a fresh one.
  return Buffer.from(cut, 'utf16le').toString('utf16le');
}

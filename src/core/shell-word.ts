/** Words for the command lines the tool prints (curl lines, re-run and repair commands), as a POSIX shell reads them back. */

/** A word as a command line shows it: plain words as they are, anything else quoted by shellQuote. */
export const shellWord = (value: string): string => (/^[\w./:@%+=,-]+$/.test(value) ? value : shellQuote(value));

/**
 * One shell word that a POSIX shell (and bash) reads back as `value` exactly. Single quotes
 * keep everything literal, UTF-8 included; text with control characters (a raw newline is easy
 * to break when pasting) uses bash's $'...' with escapes instead.
 */
export function shellQuote(value: string): string {
  if (!/[\x00-\x1f\x7f]/.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`;
  const escaped = [...value]
    .map((ch) => {
      if (ch === '\\') return '\\\\';
      if (ch === "'") return "\\'";
      const code = ch.codePointAt(0)!;
      return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
    })
    .join('');
  return `$'${escaped}'`;
}

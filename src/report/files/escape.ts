/**
 * Escaping for the markup formats. Payloads are hostile on purpose (emoji, RTL marks, combining
 * marks, `<script>`, control characters), so every piece of data goes through one of these.
 */
import { oneLine } from '../../core/text.ts';

// Characters XML 1.0 forbids outright: C0 controls other than tab/LF/CR, lone surrogates,
// U+FFFE and U+FFFF. (C1 controls are allowed but discouraged; they are made visible below.)
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const C1_CONTROLS = /[\u007F-\u009F]/g;

const codePoint = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Replaces characters XML 1.0 cannot carry with a visible `\uXXXX` so the evidence stays readable. */
export function makeXmlSafe(text: string): string {
  return text.replace(XML_ILLEGAL, codePoint).replace(C1_CONTROLS, codePoint);
}

/** Text content or attribute value for XML (JUnit). */
export function escapeXml(text: string): string {
  return (
    makeXmlSafe(text)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Attribute values normalise raw newlines and tabs away; keep them as references.
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;')
  );
}

/** Text content for XML where newlines should stay literal (CDATA is avoided: `]]>` breaks it). */
export function escapeXmlText(text: string): string {
  return makeXmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text content or attribute value for HTML. */
export function escapeHtml(text: string): string {
  return makeXmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A markdown table cell: one line, pipes and markup neutralised, bounded length. */
export function escapeMarkdownCell(text: string, max = 160): string {
  const cut = oneLine(makeXmlSafe(text), max);
  return cut.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/`/g, '\\`').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

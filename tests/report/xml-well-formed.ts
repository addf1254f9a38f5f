/**
 * A small XML 1.0 well-formedness check for the JUnit output (Node has no XML parser): legal
 * characters only, balanced elements, quoted attributes, and every `&` starting a known entity.
 * Returns the problems; an empty list means well formed.
 */
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y;
const TAG = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/y;

export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const illegal = ILLEGAL.exec(xml);
  if (illegal) problems.push(`illegal character U+${illegal[0].charCodeAt(0).toString(16)} at ${illegal.index}`);
  let text = xml.replace(/^<\?xml[^?]*\?>/, '');
  const stack: string[] = [];
  let i = 0;
  let roots = 0;
  while (i < text.length && problems.length < 5) {
    const ch = text[i];
    if (ch === '<') {
      TAG.lastIndex = i;
      const m = TAG.exec(text);
      if (!m) {
        problems.push(`malformed tag at ${i}: ${text.slice(i, i + 40)}`);
        break;
      }
      const [, closing, name, , selfClosing] = m;
      if (closing) {
        const open = stack.pop();
        if (open !== name) problems.push(`</${name}> closes <${open}>`);
      } else if (!selfClosing) {
        if (!stack.length) roots++;
        stack.push(name);
      } else if (!stack.length) roots++;
      // Attribute values must not hold a raw `&` that is not an entity.
      for (const amp of m[0].matchAll(/&/g)) {
        ENTITY.lastIndex = amp.index!;
        if (!ENTITY.test(m[0])) problems.push(`bare & in tag ${name}`);
      }
      i = TAG.lastIndex;
    } else if (ch === '&') {
      ENTITY.lastIndex = i;
      if (!ENTITY.test(text)) problems.push(`bare & at ${i}: ${text.slice(i, i + 20)}`);
      i++;
    } else if (ch === '>') {
      problems.push(`bare > at ${i}`);
      i++;
    } else i++;
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  text = '';
  return problems;
}

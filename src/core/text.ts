/** Text helpers shared by the layers and the embedded server. */

/** Characters as the document counts them (section 8, docs/design.md section 2): Unicode code points. */
export const codePoints = (text: string): number => [...text].length;

/**
 * Text fit for one console or log line: control characters and runs of white space become one
 * space; longer than `max` code points, it is cut with an ellipsis.
 */
export function oneLine(text: string, max = Infinity): string {
  const flat = text.replace(/[\s\u0000-\u001F\u007F-\u009F]+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : flat;
}

/**
 * Named things in the order of their names' UTF-16 code units, the same on every machine (not
 * localeCompare): the order of a bundle's members, its manifest and its attestation's subjects.
 */
export const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

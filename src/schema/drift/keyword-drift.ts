/**
 * The keywords of one node compared (types, lists, patterns, formats, bounds), each difference
 * classified as the vendor's QA engineer would: a value the document shows that the OpenAPI
 * refuses, or a limit of the document the OpenAPI does not keep, is a contradiction; a restriction
 * where the document states none is a tightening of an open point; the rest is information.
 */
import type { OpenKind } from '../../core/open-point.ts';
import { accepts, inWords, quote } from './constraint-check.ts';
import { type DriftNode, findingAt, shownWords } from './drift-context.ts';
import type { DriftFinding } from './drift-finding.ts';
import { keywordOf, typesOf } from './schema-view.ts';

const KEYWORDS = [
  'type',
  'enum',
  'const',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
];

/** Keywords whose absence lets through what the document's limit forbids. */
const LIMITS = new Set(['type', 'enum', 'const', 'minLength', 'maxLength', 'minProperties', 'maxProperties', 'minItems', 'maxItems', 'minimum', 'maximum']);

/** The kinds of open value a restriction refuses, as a run's observed contract names them. */
const OPEN_KINDS: Record<string, OpenKind[]> = {
  maxLength: ['length'],
  minLength: ['length'],
  pattern: ['alphabet', 'code', 'letter-case'],
  enum: ['code', 'letter-case'],
  const: ['code', 'letter-case'],
  format: ['format', 'date'],
  maxItems: ['entries'],
  maxProperties: ['metadata'],
};

type Side = { value: unknown; pointer: string } | undefined;

/** The node's type set as a keyword (one merged value across fragments). */
function typeKeyword(view: DriftNode['ours'], at: string): Side {
  const types = typesOf(view);
  if (!types) return undefined;
  const holder = view.fragments.find((f) => f.schema.type !== undefined);
  return { value: [...types].sort(), pointer: holder ? `${holder.pointer}/type` : at };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Both sides state the keyword, differently, and no shown value tells them apart. */
function bothStated(node: DriftNode, keyword: string, o: NonNullable<Side>, t: NonNullable<Side>): DriftFinding | undefined {
  const parts = { keyword, ours: o.pointer, theirs: t.pointer, document: inWords(keyword, o.value), openapi: inWords(keyword, t.value) };
  if (keyword.startsWith('max') || keyword.startsWith('min')) {
    const stricter = keyword.startsWith('max') ? Number(t.value) < Number(o.value) : Number(t.value) > Number(o.value);
    const verb = stricter ? 'refuses values the document allows' : 'accepts values the document forbids';
    return findingAt(node, 'contradiction', { ...parts, reason: `${verb}: ${parts.openapi} where the document says ${parts.document}` });
  }
  if (keyword === 'enum' || keyword === 'type') {
    const ours = (Array.isArray(o.value) ? o.value : [o.value]).map((v) => JSON.stringify(v));
    const theirs = (Array.isArray(t.value) ? t.value : [t.value]).map((v) => JSON.stringify(v));
    const missing = ours.filter((v) => !theirs.includes(v) && !(keyword === 'type' && v === '"integer"' && theirs.includes('"number"')));
    const extra = theirs.filter((v) => !ours.includes(v) && !(keyword === 'type' && v === '"integer"' && ours.includes('"number"')));
    if (missing.length)
      return findingAt(node, keyword === 'enum' ? 'contradiction' : 'other', { ...parts, reason: `refuses ${missing.join(', ')}, which the document allows` });
    if (extra.length && (keyword === 'enum' || node.direction === 'request')) {
      return findingAt(node, 'contradiction', { ...parts, reason: `accepts ${extra.join(', ')}, which the document does not allow` });
    }
    return extra.length ? findingAt(node, 'other', { ...parts, reason: `allows ${extra.join(', ')} besides the document's` }) : undefined;
  }
  return findingAt(node, 'other', { ...parts, reason: `states another ${keyword}; the values the document shows pass both` });
}

/** One keyword of the node, or nothing when both sides agree. */
function keywordDrift(node: DriftNode, keyword: string): DriftFinding | undefined {
  const o = keyword === 'type' ? typeKeyword(node.ours, node.oursAt) : keywordOf(node.ours, keyword);
  const t = keyword === 'type' ? typeKeyword(node.theirs, node.theirsAt) : keywordOf(node.theirs, keyword);
  if ((!o && !t) || (o && t && same(o.value, t.value))) return undefined;
  const parts = {
    keyword,
    ours: o?.pointer ?? node.oursAt,
    theirs: t?.pointer ?? node.theirsAt,
    document: inWords(keyword, o?.value),
    openapi: inWords(keyword, t?.value),
    ...(t ? { constraint: t.value } : {}),
  };
  const refused = t ? node.shown.filter((v) => accepts(keyword, t.value, v) === false) : [];
  if (refused.length) return findingAt(node, 'contradiction', { ...parts, reason: `refuses ${quote(refused[0])}, ${shownWords(node)}` });
  if (t && !o) {
    // A pattern where the document states a format (a date) is another spelling of it, not a restriction.
    if (keyword === 'pattern' && keywordOf(node.ours, 'format'))
      return findingAt(node, 'other', { ...parts, reason: 'states a pattern where the document states a format' });
    return findingAt(node, 'tightening', {
      ...parts,
      reason: `restricts a point the document leaves open (${parts.openapi})`,
      openKinds: OPEN_KINDS[keyword] ?? [],
    });
  }
  if (o && !t) {
    // What the OpenAPI could not be read for (an external $ref) is not compared, not missing.
    if (node.theirs.unreadable.length) return undefined;
    if (LIMITS.has(keyword))
      return findingAt(node, 'contradiction', { ...parts, reason: `accepts what the document forbids: it does not keep "${parts.document}"` });
    return findingAt(node, 'other', { ...parts, reason: `does not state the document's ${keyword} (${parts.document})` });
  }
  return bothStated(node, keyword, o!, t!);
}

/** Every keyword difference of one node. */
export function keywordDrifts(node: DriftNode): DriftFinding[] {
  return KEYWORDS.filter((k) => !(node.keys && k === 'type'))
    .map((k) => keywordDrift(node, k))
    .filter((f): f is DriftFinding => f !== undefined);
}

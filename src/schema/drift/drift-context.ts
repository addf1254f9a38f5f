/** One node of a drift walk: both sides' views of it, where it is, and the values the document shows there. */
import type { OpenKind } from '../../core/open-point.ts';
import type { Operation } from '../../core/operations.ts';
import type { DriftFinding, DriftKind } from './drift-finding.ts';
import type { RefResolver, SchemaView } from './schema-view.ts';

export interface DriftNode {
  operation: Operation;
  direction: 'request' | 'response';
  field: string;
  section?: string;
  ours: SchemaView;
  theirs: SchemaView;
  /** The nodes' own pointers, for a difference no keyword holds (a keyword one side lacks). */
  oursAt: string;
  theirsAt: string;
  /** The values the document's samples show here. */
  shown: unknown[];
  ourResolver: RefResolver;
  theirResolver: RefResolver;
  /** The node holds a map's keys (propertyNames). */
  keys?: boolean;
}

/** What a finding adds to its node. */
export interface FindingParts {
  keyword: string;
  ours?: string;
  theirs?: string;
  document: string;
  openapi: string;
  reason: string;
  openKinds?: OpenKind[];
  constraint?: unknown;
}

export function findingAt(node: DriftNode, kind: DriftKind, parts: FindingParts): DriftFinding {
  return {
    kind,
    operation: node.operation,
    direction: node.direction,
    field: node.field || '(body)',
    ...(node.section ? { section: node.section } : {}),
    keyword: parts.keyword,
    ours: parts.ours ?? node.oursAt,
    theirs: parts.theirs ?? node.theirsAt,
    document: parts.document,
    openapi: parts.openapi,
    reason: parts.reason,
    ...(parts.constraint !== undefined ? { constraint: parts.constraint } : {}),
    ...(parts.openKinds?.length ? { openKinds: parts.openKinds } : {}),
  };
}

/** "the document shows" for a request, "the document's sample returns" for a response. */
export const shownWords = (node: DriftNode): string => (node.direction === 'request' ? 'a value the document guarantees' : 'a value the document returns');

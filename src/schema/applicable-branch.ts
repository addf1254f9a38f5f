/**
 * The errors of a failed anyOf (or oneOf) cut to the branch that applies. Ajv reports every
 * branch's errors: a payload with its status inside fiat_network_instructions also hears
 * "must have required property 'fiat_account_owner'" from the branch it never meant, for a field
 * that is optional. The branch that applies is the one the payload got furthest into: its deepest
 * error, then its fewest errors. When no branch stands out (each misses a different property at
 * the same place), none is told: the combinator's own description says what is wanted.
 */
import type { SchemaError } from './registry.ts';

const depth = (pointer: string): number => (pointer ? pointer.split('/').length - 1 : 0);

/** Whether `error` came from the branch at `branchPath` (its keyword sits under it). */
const under = (error: SchemaError, branchPath: string): boolean => error.schemaPath?.startsWith(`${branchPath}/`) ?? false;

/** `errors` with each failed combinator's branches cut to the one that applies (or to none). */
export function applicableErrors(errors: readonly SchemaError[]): SchemaError[] {
  const dropped = new Set<SchemaError>();
  for (const combinator of errors) {
    if (!combinator.branches?.length) continue;
    const perBranch = combinator.branches.map((path) =>
      errors.filter((e) => e !== combinator && under(e, path) && e.instancePath.startsWith(combinator.instancePath)),
    );
    const ranked = perBranch
      .map((list, index) => ({ index, list, deepest: Math.max(-1, ...list.map((e) => depth(e.instancePath))) }))
      .filter((b) => b.list.length > 0)
      .sort((a, b) => b.deepest - a.deepest || a.list.length - b.list.length);
    const [best, next] = ranked;
    const standsOut = best && (!next || best.deepest > next.deepest || best.list.length < next.list.length);
    for (const b of ranked) if (!standsOut || b !== best) for (const e of b.list) dropped.add(e);
  }
  return errors.filter((e) => !dropped.has(e));
}

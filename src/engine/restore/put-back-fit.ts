/**
 * An update fitted to what the restore can put back (docs/design.md, "A guest in a shared
 * sandbox"). A field the account showed empty at the start ("" or null, an empty object, or not
 * there at all) can only be put back by sending "" or null, which a target may rightly ignore (the
 * vendor's OpenAPI: "Empty strings or null values are ignored"); so a run never sets such a field
 * to a value. A valid update leaves those fields out of its body (every field of the update is
 * optional, section 4.1), except the one field an open case is about. Invalid cases are sent as
 * generated: their defect may be any field, and a target that keeps to the document refuses them.
 */
import type { TestCase } from '../../core/case.ts';
import { isObject } from '../../rules/checks/exchange-facts.ts';
import { type AccountState, fieldName } from './account-state.ts';
import { writePaths } from './restore-plan.ts';

/** The parts of an update body the restore writes back field by field: the owner's names and the wire instructions. */
const PUT_BACK_ROOTS: readonly (readonly string[])[] = [
  ['fiat_account_owner', 'person_details'],
  ['fiat_network_instructions', 'wire'],
];

/** A value that sets nothing: what a target may ignore, and all that could put an empty field back. */
const isEmptyValue = (value: unknown): boolean => value === null || value === '' || (isObject(value) && !Object.keys(value).length);

/** What the start read shows at each place an update writes, by the body path's display name. */
function startValues(start: AccountState): Map<string, unknown> {
  const writeAt = writePaths(start);
  const values = new Map<string, unknown>();
  for (const field of start.values()) if (field.kind === 'owner' || field.kind === 'wire') values.set(fieldName(writeAt(field)), field.value);
  return values;
}

/**
 * `c` without the values it would set on fields `start` shows empty; `c` itself when it sets none,
 * is not a valid update, or names no account. The open case's own field stays (its subject).
 */
export function fitToPutBack(c: TestCase, start: AccountState | undefined): TestCase {
  const fitted = fitBody(c, start, c.open?.field);
  // The valid twin goes fitted too (it is sent through the same fitting): the case names the twin it will have, so exchanges.har's links hold.
  const control = c.control && fitToPutBack(c.control, start);
  return control === c.control ? fitted : { ...fitted, control };
}

/**
 * Why an open case is not sent: it would set its own field, which the account showed empty, to a
 * value that only "" or null could take back (a target may ignore both). Undefined when it would not.
 */
export function unrestorableSubject(c: TestCase, start: AccountState | undefined): string | undefined {
  const subject = c.open?.field;
  if (subject === undefined || sameJson(fitBody(c, start, subject).body, fitBody(c, start, undefined).body)) return undefined;
  return `not sent: it would set ${subject}, which fiat account ${c.fiatAccountId} showed empty when journaled, and only "" or null could put it back (a target may ignore both, as the vendor's OpenAPI says)`;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `c` fitted, `subject` (a field's display name) sent as generated. */
function fitBody(c: TestCase, start: AccountState | undefined, subject: string | undefined): TestCase {
  if (!start || c.operation !== 'updateFiatAccount' || c.mode === 'invalid' || c.around || c.restore || !isObject(c.body)) return c;
  const values = startValues(start);
  const under = (name: string, root: string) => name === root || name.startsWith(`${root}.`) || name.startsWith(`${root}[`);
  const keep = (path: readonly string[]) => subject !== undefined && under(fieldName(path), subject);
  const holdsSubject = (name: string) => subject?.startsWith(`${name}.`) === true;
  // A path the start shows a value at or under: an object there is fitted key by key.
  const shown = (name: string) => [...values.keys()].some((k) => under(k, name));
  const fitValue = (value: unknown, path: readonly string[]): unknown => {
    const name = fieldName(path);
    if (isEmptyValue(value) || keep(path)) return value;
    if (values.has(name)) return isEmptyValue(values.get(name)) ? undefined : value;
    if (!isObject(value) || !(shown(name) || holdsSubject(name))) return undefined;
    const kept = Object.entries(value).flatMap(([key, child]) => {
      const fitted = fitValue(child, [...path, key]);
      return fitted === undefined ? [] : [[key, fitted] as const];
    });
    // An object emptied by the fitting is left out, not sent as {} (which a target may take as "clear it").
    return kept.length ? Object.fromEntries(kept) : undefined;
  };
  const body = fitRoots(c.body, fitValue);
  return body === c.body ? c : { ...c, body };
}

/** `body` with each put-back root fitted (the same object when nothing changed); a parent emptied by it is left out. */
function fitRoots(body: Record<string, unknown>, fitValue: (value: unknown, path: readonly string[]) => unknown): Record<string, unknown> {
  let changed = false;
  const entries = Object.entries(body).flatMap(([parent, holder]) => {
    const root = PUT_BACK_ROOTS.find(([p, child]) => p === parent && isObject(holder) && Object.hasOwn(holder, child!));
    if (!root || !isObject(holder)) return [[parent, holder] as const];
    const child = root[1]!;
    const fitted = fitValue(holder[child], [parent, child]);
    if (sameJson(fitted, holder[child])) return [[parent, holder] as const];
    changed = true;
    const next = Object.entries(holder).flatMap(([key, v]) => (key !== child ? [[key, v] as const] : fitted === undefined ? [] : [[key, fitted] as const]));
    return next.length ? [[parent, Object.fromEntries(next)] as const] : [];
  });
  // Object.fromEntries keeps a "__proto__" key a plain key.
  return changed ? Object.fromEntries(entries) : body;
}

/**
 * Every family of cases the runner sends, one per rule that needs its own payloads. Rules judged
 * on every response (schema, enums, timestamps ...) need no family: all exchanges feed them.
 */
import type { CaseFamily } from './family.ts';
import { updateFiatAccountFamilies } from '../update-fiat-account/cases.ts';
import { createIdentityFamilies } from '../create-identity/cases.ts';

export type { CaseFamily } from './family.ts';

export function caseFamilies(): CaseFamily[] {
  return [...updateFiatAccountFamilies, ...createIdentityFamilies];
}

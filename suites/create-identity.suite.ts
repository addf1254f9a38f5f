/** Conformance of POST /v2/identity/identities: one test per rule of the catalogue. */
import { defineRuleSuite } from './support/conformance.ts';

defineRuleSuite('POST /v2/identity/identities', 'id.');

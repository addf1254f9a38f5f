/** Conformance of POST /v2/identity/identities: one test per rule of the catalogue. */
import { defineOperationSuite } from 'fiat-identity-conformance/vitest';

defineOperationSuite('createIdentity');

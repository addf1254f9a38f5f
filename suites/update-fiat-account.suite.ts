/** Conformance of PUT /v2/transfer/fiat-accounts/{id}: one test per rule of the catalogue. */
import { defineOperationSuite } from 'fiat-identity-conformance/vitest';

defineOperationSuite('updateFiatAccount');

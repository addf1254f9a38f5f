/** Conformance of PUT /v2/transfer/fiat-accounts/{id}: one test per rule of the catalogue. */
import { defineRuleSuite } from './support/conformance.ts';

defineRuleSuite('PUT /v2/transfer/fiat-accounts/{id}', 'fa.');

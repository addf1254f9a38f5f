/**
 * Cases for PUT /v2/transfer/fiat-accounts/{id} (sections 2.1-2.4, 4.1, 8). The runner fills in
 * the fiat account id of cases that leave it out.
 */
import fc from 'fast-check';
import { caseBuilder, type CaseFamily } from './family.ts';
import { CLASSES, METADATA_LIMITS, metadataArbitrary, metadataWithLongPart, pairWithLongPart, plainPairs, validMetadata } from './metadata.ts';
import { fiatNetworkInstructions, personName } from './payload-parts.ts';
import { text } from './text.ts';
import { sample } from './samples.ts';
import { malformedBodyFamily, wrongTypeFamily } from './wrong-types.ts';

const { maxPairs, maxLength } = METADATA_LIMITS;

const update = caseBuilder('updateFiatAccount');

/** Any valid update: every field optional, each sometimes present. */
export const validUpdateBody = fc.record(
  {
    fiat_account_owner: fc.record({ person_details: fc.record({ first_name: personName, last_name: personName }, { requiredKeys: [] }) }),
    fiat_network_instructions: fiatNetworkInstructions,
    metadata: validMetadata,
  },
  { requiredKeys: [] },
);

const describeBody = (body: Record<string, unknown>): string =>
  Object.keys(body).length ? `update with ${Object.keys(body).join(', ')}` : 'empty update';

const valid: CaseFamily = {
  rule: 'fa.valid-accepted',
  examples: [
    update("the document's sample update request", 'valid', sample('update-fiat-account-request')),
    update('owner names with combining marks and right-to-left script', 'valid', {
      fiat_account_owner: { person_details: { first_name: 'Zoe\u0308', last_name: 'כהן' } },
    }),
    update('owner names with astral characters', 'valid', { fiat_account_owner: { person_details: { first_name: '😀', last_name: '𝒜da' } } }),
    update('metadata with an empty value', 'valid', { metadata: { note: '' } }),
    update(`metadata with ${maxPairs} pairs`, 'valid', { metadata: plainPairs(maxPairs) }),
  ],
  arbitrary: validUpdateBody.map((body) => update(`random ${describeBody(body)}`, 'valid', body)),
};

const maxPairsAccepted: CaseFamily = {
  rule: 'fa.metadata.max-pairs-accepted',
  examples: [
    update(`metadata with exactly ${maxPairs} pairs`, 'boundary', { metadata: plainPairs(maxPairs) }, 'fa.metadata.max-pairs-accepted'),
    update(
      `metadata with exactly ${maxPairs} pairs of ${maxLength}-character keys and values`,
      'boundary',
      { metadata: Object.fromEntries(Array.from({ length: maxPairs }, (_, i) => [`${i}`.padEnd(maxLength, 'k'), 'v'.repeat(maxLength)])) },
      'fa.metadata.max-pairs-accepted',
    ),
  ],
  arbitrary: metadataArbitrary(maxPairs, maxPairs, text(1, maxLength), text(0, maxLength)).map((metadata) =>
    update(`random metadata with exactly ${maxPairs} pairs`, 'boundary', { metadata }, 'fa.metadata.max-pairs-accepted'),
  ),
};

const overPairsRejected: CaseFamily = {
  rule: 'fa.metadata.over-pairs-rejected',
  examples: [maxPairs + 1, maxPairs + 4].map((n) =>
    update(`metadata with ${n} pairs`, 'invalid', { metadata: plainPairs(n) }, 'fa.metadata.over-pairs-rejected'),
  ),
  arbitrary: fc
    .tuple(metadataArbitrary(maxPairs + 1, maxPairs + 6, text(1, 20), text(0, 20)), validUpdateBody)
    .map(([metadata, body]) =>
      update(`random metadata with ${Object.keys(metadata).length} pairs`, 'invalid', { ...body, metadata }, 'fa.metadata.over-pairs-rejected'),
    ),
};

const parts = ['key', 'value'] as const;

const maxLengthAccepted: CaseFamily = {
  rule: 'fa.metadata.max-length-accepted',
  examples: parts.flatMap((part) =>
    CLASSES.map((cls) =>
      update(`metadata ${part} of exactly ${maxLength} ${cls} characters`, 'boundary', { metadata: pairWithLongPart(part, cls, maxLength) }, 'fa.metadata.max-length-accepted'),
    ),
  ),
  arbitrary: metadataWithLongPart(maxLength).map((metadata) =>
    update(`random metadata with a key or value of exactly ${maxLength} characters`, 'boundary', { metadata }, 'fa.metadata.max-length-accepted'),
  ),
};

const overLengthRejected: CaseFamily = {
  rule: 'fa.metadata.over-length-rejected',
  examples: parts.flatMap((part) =>
    CLASSES.map((cls) =>
      update(`metadata ${part} of ${maxLength + 1} ${cls} characters`, 'invalid', { metadata: pairWithLongPart(part, cls, maxLength + 1) }, 'fa.metadata.over-length-rejected'),
    ),
  ),
  arbitrary: fc
    .integer({ min: maxLength + 1, max: maxLength + 50 })
    .chain(metadataWithLongPart)
    .map((metadata) => update('random metadata with a key or value over the length limit', 'invalid', { metadata }, 'fa.metadata.over-length-rejected')),
};

const wrongTypes = wrongTypeFamily(
  'fa.wrong-types-rejected',
  { fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } } },
  validUpdateBody,
  [
    { path: ['metadata'], value: 'note' },
    { path: ['metadata'], value: ['k', 'v'] },
    { path: ['metadata'], value: 5 },
    { path: ['metadata', 'k'], value: { nested: 'v' } },
    { path: ['fiat_account_owner'], value: 'Ada Lovelace' },
    { path: ['fiat_account_owner', 'person_details'], value: ['Ada', 'Lovelace'] },
    { path: ['fiat_account_owner', 'person_details', 'first_name'], value: 42 },
    { path: ['fiat_account_owner', 'person_details', 'last_name'], value: true },
    { path: ['fiat_network_instructions'], value: 'wire' },
    { path: ['fiat_network_instructions', 'wire'], value: 7 },
  ],
  (label, body) => update(label, 'invalid', body, 'fa.wrong-types-rejected'),
);

/** Ids that cannot be UUIDs; the path parameter is typed string (UUID). */
const MALFORMED_IDS = ['not-a-uuid', '12345', '0f8fad5b-d9cb-469f-a165-70867728950', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'];

const malformedId: CaseFamily = {
  rule: 'fa.malformed-id-4xx',
  examples: MALFORMED_IDS.map((id) => update(`malformed fiat account id "${id}"`, 'invalid', {}, 'fa.malformed-id-4xx', { fiatAccountId: id })),
};

/** A well-formed id that no account has (version 4 UUIDs collide with nothing in practice). */
const unknownId: CaseFamily = {
  rule: 'fa.unknown-id-404',
  examples: [update('unknown fiat account id', 'valid', {}, undefined, { fiatAccountId: '3b241101-e2bb-4255-8caf-4136c566a962' })],
  arbitrary: fc.uuid({ version: 4 }).map((id) => update('random unknown fiat account id', 'valid', {}, undefined, { fiatAccountId: id })),
};

const malformedBody = malformedBodyFamily('fa.rejection-4xx', update);

export const updateFiatAccountFamilies: CaseFamily[] = [
  maxPairsAccepted,
  overPairsRejected,
  maxLengthAccepted,
  overLengthRejected,
  valid,
  wrongTypes,
  malformedId,
  unknownId,
  malformedBody,
];

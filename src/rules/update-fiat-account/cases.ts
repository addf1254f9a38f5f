/**
 * Cases for PUT /v2/transfer/fiat-accounts/{id} (sections 2.1-2.4, 4.1, 8). The runner fills in
 * the fiat account id of cases that leave it out.
 */
import fc from 'fast-check';
import { caseBuilder, type CaseFamily } from '../cases/family.ts';
import {
  CLASSES,
  METADATA_LIMITS,
  metadataArbitrary,
  metadataWithLongPart,
  pairWithLongPart,
  placeLongPart,
  plainPairs,
  type Metadata,
} from './metadata-cases.ts';
import { fiatNetworkInstructions, ownerPersonDetails } from '../cases/payload-parts.ts';
import { freeText, repeatCodePoints, text } from '../cases/text.ts';
import { withControl } from '../cases/twins.ts';
import { openCases, openExamples } from '../open-points/open-facet.ts';
import { UPDATE_OPEN_POINTS } from '../open-points/cases.ts';
import { sample } from '../cases/samples.ts';
import { malformedBodyFamily, wrongTypeFamily } from '../cases/wrong-types.ts';
import { emptyBodyFamily, otherMethodsFamily } from '../http-around/cases.ts';

const { maxPairs, maxLength } = METADATA_LIMITS;

const update = caseBuilder('updateFiatAccount');

/**
 * Metadata within the limits (at most 6 pairs, keys and values of at most 100 characters), with
 * keys and values of every length band up to the limit.
 */
export const validUpdateMetadata = metadataArbitrary(
  0,
  maxPairs,
  freeText(maxLength).filter((k) => k !== ''),
  freeText(maxLength),
);

/** Any valid update: every field optional, each sometimes present. */
export const validUpdateBody = fc.record(
  {
    fiat_account_owner: fc.record({ person_details: ownerPersonDetails }, { requiredKeys: [] }),
    fiat_network_instructions: fiatNetworkInstructions,
    metadata: validUpdateMetadata,
  },
  { requiredKeys: [] },
);

/** `metadata` without its last pair. */
const withoutLastPair = (metadata: Metadata): Metadata => Object.fromEntries(Object.entries(metadata).slice(0, -1));
/** The first `count` pairs of `metadata`. */
const firstPairs = (metadata: Metadata, count: number): Metadata => Object.fromEntries(Object.entries(metadata).slice(0, count));
const firstCodePoints = (s: string, count: number) => [...s].slice(0, count).join('');

const describeBody = (body: Record<string, unknown>): string => (Object.keys(body).length ? `update with ${Object.keys(body).join(', ')}` : 'empty update');

const valid: CaseFamily = {
  rule: 'fa.valid-accepted',
  examples: [
    update("the document's sample update request", 'valid', sample('update-fiat-account-request')),
    update('metadata with an empty value', 'valid', { metadata: { note: '' } }),
    update('metadata in several scripts', 'valid', { metadata: { note: 'Zoë', 名前: '山田', emoji: '😀', שם: 'כהן' } }),
    update("wire instructions as the document's sample account holds them", 'valid', {
      fiat_network_instructions: {
        wire: (sample('fiat-account') as { fiat_account_owner: { fiat_network_instructions: { wire: unknown } } }).fiat_account_owner.fiat_network_instructions
          .wire,
      },
    }),
    update('only the first name of the owner', 'valid', { fiat_account_owner: { person_details: { first_name: 'Jane' } } }),
    update(`metadata with ${maxPairs} pairs`, 'valid', { metadata: plainPairs(maxPairs) }),
    ...openExamples('updateFiatAccount', UPDATE_OPEN_POINTS, {}),
  ],
  // Guaranteed bodies and open ones alike: a refused open value is recorded, never blamed.
  arbitrary: fc.oneof(
    validUpdateBody.map((body) => update(`random ${describeBody(body)}`, 'valid', body)),
    openCases('updateFiatAccount', UPDATE_OPEN_POINTS, validUpdateBody),
  ),
};

/** A case with `maxPairs` pairs; its twin has one pair fewer. */
const atMaxPairs = (label: string, body: Record<string, unknown>, metadata: Metadata) =>
  withControl(update(label, 'boundary', { ...body, metadata }, 'fa.metadata.max-pairs-accepted'), { ...body, metadata: withoutLastPair(metadata) });

const maxPairsAccepted: CaseFamily = {
  rule: 'fa.metadata.max-pairs-accepted',
  examples: [
    atMaxPairs(`metadata with exactly ${maxPairs} pairs`, {}, plainPairs(maxPairs)),
    atMaxPairs(
      `metadata with exactly ${maxPairs} pairs of ${maxLength}-character keys and values`,
      {},
      Object.fromEntries(Array.from({ length: maxPairs }, (_, i) => [`${i}`.padEnd(maxLength, 'k'), 'v'.repeat(maxLength)])),
    ),
  ],
  arbitrary: metadataArbitrary(maxPairs, maxPairs, text(1, maxLength), text(0, maxLength)).map((metadata) =>
    atMaxPairs(`random metadata with exactly ${maxPairs} pairs`, {}, metadata),
  ),
};

/** A case with too many pairs; its twin keeps the first `maxPairs`, on the limit. */
const overMaxPairs = (label: string, body: Record<string, unknown>, metadata: Metadata) =>
  withControl(
    update(label, 'invalid', { ...body, metadata }, 'fa.metadata.over-pairs-rejected'),
    { ...body, metadata: firstPairs(metadata, maxPairs) },
    { exercises: 'fa.metadata.max-pairs-accepted', twinOfTwin: { ...body, metadata: withoutLastPair(firstPairs(metadata, maxPairs)) } },
  );

/**
 * 7 to 12 pairs. Mostly the plain keys k1..k6 (random values) and then random extra keys, so the
 * twin (the first 6 pairs) holds only keys of plainPairs: under merge semantics it then adds no
 * key to an account and still fits, and the case can be judged. Now and then every key is random.
 */
const overPairsMetadata: fc.Arbitrary<Metadata> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.array(text(0, 20), { minLength: maxPairs, maxLength: maxPairs }),
        metadataArbitrary(
          1,
          6,
          text(1, 20).map((k) => `x-${k}`),
          text(0, 20),
        ),
      )
      .map(([values, extra]) => ({ ...Object.fromEntries(values.map((v, i) => [`k${i + 1}`, v])), ...extra })),
  },
  { weight: 1, arbitrary: metadataArbitrary(maxPairs + 1, maxPairs + 6, text(1, 20), text(0, 20)) },
);

const overPairsRejected: CaseFamily = {
  rule: 'fa.metadata.over-pairs-rejected',
  examples: [maxPairs + 1, maxPairs + 4].map((n) => overMaxPairs(`metadata with ${n} pairs`, {}, plainPairs(n))),
  arbitrary: fc
    .tuple(overPairsMetadata, validUpdateBody)
    .map(([metadata, body]) => overMaxPairs(`random metadata with ${Object.keys(metadata).length} pairs`, body, metadata)),
};

const parts = ['key', 'value'] as const;

/**
 * The twin of a case on the length limit: the long key or value replaced by a short ASCII one, so
 * a server that counts bytes or UTF-16 units accepts the twin and the limit takes the blame.
 */
const shortPart = (part: 'key' | 'value', others: Metadata = {}) => placeLongPart(part, part === 'key' ? 'k1' : 'v', others);

const maxLengthAccepted: CaseFamily = {
  rule: 'fa.metadata.max-length-accepted',
  examples: parts.flatMap((part) =>
    CLASSES.map((cls) =>
      withControl(
        update(
          `metadata ${part} of exactly ${maxLength} ${cls} characters`,
          'boundary',
          { metadata: pairWithLongPart(part, cls, maxLength) },
          'fa.metadata.max-length-accepted',
        ),
        { metadata: shortPart(part) },
      ),
    ),
  ),
  arbitrary: metadataWithLongPart(maxLength).map(({ part, others, metadata }) =>
    withControl(update(`random metadata with a key or value of exactly ${maxLength} characters`, 'boundary', { metadata }, 'fa.metadata.max-length-accepted'), {
      metadata: shortPart(part, others),
    }),
  ),
};

/** The twin of a case over the length limit: the long key or value cut to exactly the limit. */
const overLengthRejected: CaseFamily = {
  rule: 'fa.metadata.over-length-rejected',
  examples: parts.flatMap((part) =>
    CLASSES.map((cls) =>
      withControl(
        update(
          `metadata ${part} of ${maxLength + 1} ${cls} characters`,
          'invalid',
          { metadata: pairWithLongPart(part, cls, maxLength + 1) },
          'fa.metadata.over-length-rejected',
        ),
        { metadata: placeLongPart(part, repeatCodePoints(cls, maxLength)) },
        { exercises: 'fa.metadata.max-length-accepted', twinOfTwin: { metadata: shortPart(part) } },
      ),
    ),
  ),
  arbitrary: fc
    .integer({ min: maxLength + 1, max: maxLength + 50 })
    .chain(metadataWithLongPart)
    .map(({ part, long, others, metadata }) =>
      withControl(
        update('random metadata with a key or value over the length limit', 'invalid', { metadata }, 'fa.metadata.over-length-rejected'),
        { metadata: placeLongPart(part, firstCodePoints(long, maxLength), others) },
        { exercises: 'fa.metadata.max-length-accepted', twinOfTwin: { metadata: shortPart(part, others) } },
      ),
    ),
};

/**
 * No null here: a null in an update may be refused or ignored (the vendor's OpenAPI ignores it),
 * so nulls are open cases (open-points/cases.ts, kind null-or-empty), judged on what the answer shows.
 */
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
    { path: ['metadata', 'k'], value: 5 },
    { path: ['fiat_network_instructions', 'wire', 'routing_details', 'routing_number'], value: 21000021 },
  ],
  (label, body) => update(label, 'invalid', body, 'fa.wrong-types-rejected'),
  [
    { path: ['metadata', 'k'], value: ['v'] },
    { path: ['metadata', 'k'], value: true },
    { path: ['fiat_account_owner', 'person_details', 'last_name'], value: ['Lovelace'] },
    { path: ['fiat_account_owner', 'person_details', 'first_name'], value: { text: 'Ada' } },
    { path: ['fiat_network_instructions', 'wire', 'account_number'], value: 1234567890 },
    { path: ['fiat_network_instructions', 'wire', 'routing_details'], value: ['ABA', '021000021'] },
    { path: ['fiat_network_instructions', 'wire', 'routing_details', 'bank_name'], value: { name: 'Bank' } },
    { path: ['fiat_network_instructions', 'wire', 'routing_details', 'bank_address', 'zip_code'], value: 10001 },
    { path: ['fiat_network_instructions', 'wire', 'fiat_account_owner_address'], value: '1 Main St' },
    { path: ['fiat_network_instructions', 'wire', 'fiat_account_owner_address', 'country'], value: ['USA'] },
  ],
);

/** Ids that cannot be UUIDs; the path parameter is typed string (UUID). */
const MALFORMED_IDS = ['not-a-uuid', '12345', '0f8fad5b-d9cb-469f-a165-70867728950', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'];

const malformedId: CaseFamily = {
  rule: 'fa.malformed-id-4xx',
  // The twin: the same body to a real account (the runner fills the id).
  examples: MALFORMED_IDS.map((id) =>
    withControl(update(`malformed fiat account id "${id}"`, 'invalid', {}, 'fa.malformed-id-4xx', { fiatAccountId: id }), {}),
  ),
};

/** A well-formed id that no account has (version 4 UUIDs collide with nothing in practice). */
const unknownId: CaseFamily = {
  rule: 'fa.unknown-id-404',
  examples: [update('unknown fiat account id', 'valid', {}, undefined, { fiatAccountId: '3b241101-e2bb-4255-8caf-4136c566a962' })],
  arbitrary: fc.uuid({ version: 4 }).map((id) => update('random unknown fiat account id', 'valid', {}, undefined, { fiatAccountId: id })),
};

const malformedBody = malformedBodyFamily('fa.rejection-4xx', update, {});

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
  // No DELETE: on a real sandbox it could delete the account (docs/design.md section 2).
  otherMethodsFamily('updateFiatAccount', 'fa.other-methods-refused', [
    { method: 'PATCH', expect: 'refused', body: {} },
    { method: 'POST', expect: 'refused', body: {} },
    { method: 'GET', expect: 'readOnly' },
    { method: 'OPTIONS', expect: 'readOnly' },
  ]),
  emptyBodyFamily('updateFiatAccount', 'fa.empty-body', false),
];

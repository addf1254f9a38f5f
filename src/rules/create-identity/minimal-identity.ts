import type { TestCase } from '../../core/case.ts';

/** A minimal valid identity: the tax rule satisfied the simplest way. */
export const minimalIdentity = (label: string): TestCase => ({
  operation: 'createIdentity',
  mode: 'valid',
  label,
  body: { person_details: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-01-01' }, tax_details_not_required: true },
});

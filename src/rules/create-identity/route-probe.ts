/**
 * A create that tells a base URL leading nowhere from unknown fiat account ids: its empty body is
 * invalid by the tax rule (4.2), so nothing is created, and a route that exists answers it with
 * something else than 404.
 */
import type { TestCase } from '../../core/case.ts';

export const routeProbe = (extra: Partial<TestCase> = {}): TestCase => ({
  operation: 'createIdentity',
  mode: 'invalid',
  violates: 'id.tax.absent-rejected',
  label: 'probe: does the create route exist?',
  body: {},
  ...extra,
});

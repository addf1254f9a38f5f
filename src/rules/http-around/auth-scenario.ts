/** The authentication scenario (section 5): requests without valid credentials, judged by the 401 and challenge rules' checks. */
import { UNAUTHENTICATED_KINDS, type TestCase, type UnauthenticatedKind } from '../../core/case.ts';
import { minimalIdentity as identity } from '../create-identity/minimal-identity.ts';
import type { Scenario } from '../scenarios.ts';

const HOW: Record<UnauthenticatedKind, string> = {
  // Not "without Authorization": followed by ": " in a message, the redaction would take it for the header.
  none: 'without an Authorization header',
  invalid: 'with a made-up bearer token',
  empty: 'with an empty bearer token',
  'wrong-scheme': 'with Basic instead of Bearer credentials',
};

/** Requests without valid credentials, each kind on each operation; the 401 and the challenge rules judge them. */
export const authentication: Scenario = {
  rule: 'fa.auth-401',
  feeds: ['id.auth-401', 'fa.auth-challenge', 'id.auth-challenge'],
  judgesItsRule: false,
  // The challenge is judged on the 401s only: a target may answer one kind with 403 (a 401 rule's finding).
  minimums: { 'fa.auth-401': 3, 'id.auth-401': 3, 'fa.auth-challenge': 2, 'id.auth-challenge': 2 },
  requests: () => 2 * UNAUTHENTICATED_KINDS.length,
  async run(context) {
    const update: TestCase = { operation: 'updateFiatAccount', mode: 'valid', label: '', body: {} };
    for (const auth of UNAUTHENTICATED_KINDS) {
      await context.exercise({ ...update, auth, label: `update ${HOW[auth]}` });
      await context.exercise({ ...identity(`create ${HOW[auth]}`), auth });
    }
    return { outcomes: [] };
  },
};

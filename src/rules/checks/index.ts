/**
 * Every check, registered with its rule (docs/design.md section 4.1). The two ref_id rules are judged by
 * scenarios (src/rules/scenarios.ts) because they need several exchanges at once.
 */
import type { Check } from '../check.ts';
import { fiatAccountChecks } from '../update-fiat-account/checks.ts';
import { identityChecks } from '../create-identity/checks.ts';
import {
  acceptedCheck,
  answersCheck,
  authCheck,
  contentTypeCheck,
  fourXxCheck,
  no5xxCheck,
  rejectedCheck,
  rejectionIs4xxCheck,
  unknownIdCheck,
} from './status-codes.ts';
import { aroundCheck, authChallengeCheck } from '../http-around/checks.ts';

export const CHECKS: readonly Check[] = [
  acceptedCheck('fa.valid-accepted'),
  acceptedCheck('fa.metadata.max-pairs-accepted'),
  acceptedCheck('fa.metadata.max-length-accepted'),
  rejectedCheck('fa.metadata.over-pairs-rejected'),
  rejectedCheck('fa.metadata.over-length-rejected'),
  rejectedCheck('fa.wrong-types-rejected'),
  contentTypeCheck('fa.content-type', 'updateFiatAccount'),
  ...fiatAccountChecks,
  unknownIdCheck('fa.unknown-id-404'),
  fourXxCheck('fa.malformed-id-4xx'),
  fourXxCheck('fa.rejection-4xx'),
  rejectionIs4xxCheck('fa.rejection-4xx', 'updateFiatAccount'),
  no5xxCheck('fa.no-5xx', 'updateFiatAccount'),
  answersCheck('fa.answers', 'updateFiatAccount'),
  authCheck('fa.auth-401', 'updateFiatAccount'),

  acceptedCheck('id.valid-accepted'),
  acceptedCheck('id.tax.not-required-accepted'),
  rejectedCheck('id.tax.absent-rejected'),
  rejectedCheck('id.tax.absent-false-rejected'),
  rejectedCheck('id.wrong-types-rejected'),
  rejectedCheck('id.dob.invalid-rejected'),
  contentTypeCheck('id.content-type', 'createIdentity'),
  ...identityChecks,
  fourXxCheck('id.rejection-4xx'),
  rejectionIs4xxCheck('id.rejection-4xx', 'createIdentity'),
  no5xxCheck('id.no-5xx', 'createIdentity'),
  answersCheck('id.answers', 'createIdentity'),
  authCheck('id.auth-401', 'createIdentity'),

  aroundCheck('fa.other-methods-refused'),
  aroundCheck('id.other-methods-refused'),
  aroundCheck('fa.empty-body'),
  aroundCheck('id.empty-body'),
  authChallengeCheck('fa.auth-challenge', 'updateFiatAccount'),
  authChallengeCheck('id.auth-challenge', 'createIdentity'),
];

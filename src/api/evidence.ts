/**
 * `fiat-identity-conformance/evidence`: the evidence of a run for tools and auditors. A report
 * folder as a (signed) bundle, its verification (the manifest, the signature, and the recorded
 * exchanges re-judged against the report), and a HAR's exchanges re-judged offline or sent again
 * to a target, and the in-toto attestation (a DSSE envelope) checked on its own. Stability marks as in the library entry: `@public` stable, `@beta` may change in a
 * minor version (re-judge and replay follow the judge's changes).
 */
export {
  /** @public */
  bundleReportFolder,
  /** @public */
  type Bundle,
  /** @public */
  type BundleOptions,
} from '../report/files/bundle/write-bundle.ts';
export type {
  /** @public */
  Manifest,
  /** @public */
  ManifestFile,
} from '../report/files/bundle/manifest.ts';
export {
  /** @public */
  verifyBundle,
  /** @public */
  type VerifyResult,
} from '../report/files/bundle/verify-bundle.ts';
export {
  /** @beta */
  verifyAttestation,
  /** @beta */
  type AttestationVerifyResult,
  /** @beta */
  type SubjectFiles,
} from '../report/files/bundle/attestation/verify-attestation.ts';
export type {
  /** @beta */
  TestResultStatement,
} from '../report/files/bundle/attestation/test-result-statement.ts';
export type {
  /** @beta */
  BundledAttestation,
} from '../report/files/bundle/attestation/bundled-attestation.ts';
export {
  /** @public */
  verifyEvidence,
  /** @beta */
  verifyEvidenceFile,
  /** @public */
  type EvidenceVerifyResult,
  /** @beta */
  type RejudgeSummary,
} from '../run/verify-evidence.ts';
export {
  /** @beta */
  rejudgeHar,
  /** @beta */
  type HarRejudge,
} from '../run/har-rejudge.ts';
export {
  /** @beta */
  replayHar,
  /** @beta */
  type HarReplay,
  /** @beta */
  type ReplayedRule,
  /** @beta */
  type ReplayStatus,
} from '../run/har-replay.ts';

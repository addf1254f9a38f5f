/**
 * The most bytes each member of a bundle may declare, by kind, and all of them together: a header
 * over its limit is refused before any of its bytes is inflated (tar-reader.ts), so `verify` of a
 * gzip bomb stops at its first header. What `verify` holds in memory (the manifest, the signature,
 * the key, the report, junit.xml and summary.md, judged whole) has small caps; what it only hashes
 * as it streams (report.html, created-identities.json) or reads entry by entry (exchanges.har)
 * has larger ones. Each cap is far above what the tool writes: a deep run's conformance.json is
 * 0.5 MB, its exchanges.har 15 MB (2.6 KB an exchange; a 95,000-exchange HAR is 250 MB).
 */
import { REPORT_FILES } from '../write-reports.ts';
import type { ArchiveLimits } from './tar-archive.ts';
import { BUNDLED_KEY_FILE, MANIFEST_FILE, SIGNATURE_FILE } from './manifest.ts';
import { ATTESTATION_FILE } from './attestation/attestation.ts';
import { JOURNAL_FILE } from '../../../engine/restore/restore-journal.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Per member name; a name not here (one the manifest will not list) gets OTHER_MEMBER_LIMIT. */
export const MEMBER_LIMITS: Readonly<Record<string, number>> = {
  [MANIFEST_FILE]: 1 * MiB,
  [SIGNATURE_FILE]: 4 * KiB,
  [BUNDLED_KEY_FILE]: 4 * KiB,
  // Rule ids and settings: a few KiB.
  [ATTESTATION_FILE]: 1 * MiB,
  // Parsed and recomputed whole: 64 times a deep run's.
  [REPORT_FILES.json]: 32 * MiB,
  [REPORT_FILES.junit]: 16 * MiB,
  [REPORT_FILES.markdown]: 16 * MiB,
  // The restore journal: a few KiB an account.
  [JOURNAL_FILE]: 16 * MiB,
  // Hashed as they stream, never held.
  [REPORT_FILES.html]: 256 * MiB,
  [REPORT_FILES.identities]: 256 * MiB,
  // Hashed as it streams and read entry by entry: four times a 95,000-exchange run's.
  [REPORT_FILES.har]: 1024 * MiB,
};
export const OTHER_MEMBER_LIMIT = 16 * MiB;
/** All members together: the HAR's cap and room for the rest. */
export const BUNDLE_LIMIT = 1536 * MiB;

export const BUNDLE_LIMITS: ArchiveLimits = {
  member: (name) => MEMBER_LIMITS[name] ?? OTHER_MEMBER_LIMIT,
  total: BUNDLE_LIMIT,
};

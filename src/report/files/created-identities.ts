/**
 * created-identities.json: every identity the run created or may have created, beside the
 * reports (docs/design.md section 5.4). The document has no delete operation, so whoever keeps
 * the sandbox gets the list to clean up: the same entries as conformance.json
 * `createdIdentities`, with the target and when. `count` counts the created ones, `unknown` the
 * creates whose answer was lost (listed by the ref_id they sent).
 */
import type { ConformanceReport } from '../model/model.ts';
import { identityCounts } from '../model/identity-counts.ts';

export const CREATED_IDENTITIES_FILE = 'created-identities.json';

export function renderCreatedIdentities(report: ConformanceReport): string {
  const identities = report.createdIdentities ?? [];
  const { created, unknown } = identityCounts(identities);
  return `${JSON.stringify({ target: report.target.baseUrl, startedAt: report.startedAt, count: created, unknown, identities }, null, 2)}\n`;
}

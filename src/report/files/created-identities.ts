/**
 * created-identities.json: every identity the run created, beside the reports (docs/design.md
 * section 5.4). The document has no delete operation, so whoever keeps the sandbox gets the list
 * to clean up: the same entries as conformance.json `createdIdentities`, with the target and when.
 */
import type { ConformanceReport } from '../model/model.ts';

export const CREATED_IDENTITIES_FILE = 'created-identities.json';

export function renderCreatedIdentities(report: ConformanceReport): string {
  const identities = report.createdIdentities ?? [];
  return `${JSON.stringify({ target: report.target.baseUrl, startedAt: report.startedAt, count: identities.length, identities }, null, 2)}\n`;
}

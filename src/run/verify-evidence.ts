/**
 * `conformance verify`'s whole check of a bundle: verifyBundle's (report/files/bundle/
 * verify-bundle.ts: hashes, signature, the verdict recomputed from the rules), then the rule
 * statuses of conformance.json against what the recorded exchanges of exchanges.har say, re-judged
 * offline (har-rejudge.ts). Composed here: the report layer cannot import the judge of run/.
 */
import type { KeyObject } from 'node:crypto';
import type { RuleId } from '../core/catalogue.ts';
import type { HarEntry } from '../report/files/har.ts';
import { verifyBundle, type VerifyResult } from '../report/files/bundle/verify-bundle.ts';
import { readTarGz } from '../report/files/bundle/tar-archive.ts';
import { REPORT_FILES } from '../report/files/write-reports.ts';
import { checkedReport } from '../report/model/read-report.ts';
import { type HarRejudge, rejudgeDisagreement, rejudgeHar } from './har-rejudge.ts';

/** What re-judging the recorded exchanges found, as `verify --json` prints it. */
export interface RejudgeSummary {
  /** Every rule re-judged: its status from the recorded exchanges and how many judged it. */
  rules: { id: RuleId; status: string; cases: number }[];
  notRejudged: HarRejudge['notRejudged'];
  /** Entries whose exchange was rebuilt and judged, and how many were left out (the reachability check, a cut body). */
  rebuilt: number;
  leftOut: number;
  /** The first rule whose status in conformance.json disagrees, as one line. */
  disagreement?: string;
}

/** A verification with the re-judge of the recorded exchanges (absent when an earlier check failed, or the bundle holds no HAR). */
export type EvidenceVerifyResult = VerifyResult & { rejudge?: RejudgeSummary };

/** The re-judge of a verified bundle's HAR against its report, or undefined without a HAR. */
function rejudgeBundle(bytes: Buffer): RejudgeSummary | undefined {
  const members = new Map(readTarGz(bytes).map((m) => [m.name, m.data]));
  const harData = members.get(REPORT_FILES.har);
  if (!harData) return undefined;
  const entries = (JSON.parse(harData.toString('utf8')) as { log?: { entries?: HarEntry[] } }).log?.entries;
  if (!Array.isArray(entries)) return { rules: [], notRejudged: [], rebuilt: 0, leftOut: 0, disagreement: `${REPORT_FILES.har} has no log.entries` };
  const report = checkedReport(JSON.parse(members.get(REPORT_FILES.json)!.toString('utf8')), REPORT_FILES.json);
  const rejudged = rejudgeHar(entries, report.target.fiatAccountIds);
  const disagreement = rejudgeDisagreement(report, rejudged);
  return {
    rules: rejudged.rules.map((r) => ({ id: r.id, status: r.status, cases: r.cases })),
    notRejudged: rejudged.notRejudged,
    rebuilt: rejudged.rebuilt,
    leftOut: rejudged.leftOut.length,
    ...(disagreement ? { disagreement: `${REPORT_FILES.json}: ${disagreement}` } : {}),
  };
}

/**
 * Verifies a bundle (verifyBundle), then re-judges its recorded exchanges: a rule status of
 * conformance.json they contradict fails the verification with one line naming the rule.
 */
export function verifyEvidence(bytes: Buffer, publicKey?: KeyObject): EvidenceVerifyResult {
  const result = verifyBundle(bytes, publicKey);
  if (!result.verified) return result;
  let rejudge: RejudgeSummary | undefined;
  try {
    rejudge = rejudgeBundle(bytes);
  } catch (error) {
    // The hashes matched, so the HAR is the one bundled: one that does not parse, or whose entries
    // are not HAR entries, is no evidence, and says so in one line rather than a stack.
    const why = error instanceof SyntaxError ? `is not JSON (${error.message})` : `cannot be re-judged (${String((error as Error).message).split('\n')[0]})`;
    return { ...result, verified: false, problem: `${REPORT_FILES.har} ${why}` };
  }
  if (!rejudge) return { ...result, notes: [...result.notes, `no ${REPORT_FILES.har}: the rule statuses were not re-judged`] };
  if (rejudge.disagreement) return { ...result, verified: false, problem: rejudge.disagreement, rejudge };
  return { ...result, rejudge };
}

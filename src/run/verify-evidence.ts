/**
 * `conformance verify`'s whole check of a bundle: verifyBundle's (report/files/bundle/
 * verify-bundle.ts: hashes, signature, the verdict recomputed from the rules), then the rule
 * statuses of conformance.json against what the recorded exchanges of exchanges.har say, re-judged
 * offline (har-rejudge.ts). Composed here: the report layer cannot import the judge of run/.
 * A bundle file is read as a stream (verifyEvidenceFile): its HAR's entries are parsed as they
 * are inflated (har-member.ts), never its text whole; a HAR too large to hold parsed is copied to a
 * spool file as it passes and re-judged from there entry by entry (har-rejudge.ts rejudgeHarStream).
 */
import type { KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RuleId } from '../core/catalogue.ts';
import type { HarEntry } from '../report/files/har.ts';
import { type MemberWatch, verifyBundleStream, verifyHeldBundle, type Verification, type VerifyResult } from '../report/files/bundle/verify-bundle.ts';
import { HarMemberReader, REJUDGE_BYTES } from '../report/files/bundle/har-member.ts';
import type { InflateProgress } from '../report/files/bundle/tar-archive.ts';
import { REPORT_FILES } from '../report/files/write-reports.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import { HarReader } from '../report/files/har-reader.ts';
import { type HarRejudge, rejudgeDisagreement, rejudgeHar, rejudgeHarStream } from './har-rejudge.ts';

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

/** The summary of a re-judge against the report. */
function rejudgeSummary(rejudged: HarRejudge, report: ConformanceReport): RejudgeSummary {
  const disagreement = rejudgeDisagreement(report, rejudged);
  return {
    rules: rejudged.rules.map((r) => ({ id: r.id, status: r.status, cases: r.cases })),
    notRejudged: rejudged.notRejudged,
    rebuilt: rejudged.rebuilt,
    leftOut: rejudged.leftOut.length,
    ...(disagreement ? { disagreement: `${REPORT_FILES.json}: ${disagreement}` } : {}),
  };
}

/** A reader of the HAR member as it passes, for the re-judge after the other checks; a large one goes to `spoolFile` when given. */
function harWatch(spoolFile?: string, budget = REJUDGE_BYTES): { watch: MemberWatch; reader: () => HarMemberReader | undefined } {
  let har: HarMemberReader | undefined;
  return {
    watch: (name, size) => {
      if (name !== REPORT_FILES.har) return undefined;
      har = new HarMemberReader(size, budget, spoolFile);
      return har;
    },
    reader: () => har,
  };
}

/** A verified result with its re-judge: failed, naming the first rule that disagrees, or verified with it. */
function withSummary(result: VerifyResult, rejudge: RejudgeSummary): EvidenceVerifyResult {
  if (rejudge.disagreement) return { ...result, verified: false, problem: rejudge.disagreement, rejudge };
  return { ...result, rejudge };
}

/** A HAR whose entries could not be judged again is no evidence: one line rather than a stack. */
const cannotRejudge = (result: VerifyResult, error: unknown): EvidenceVerifyResult => ({
  ...result,
  verified: false,
  problem: `${REPORT_FILES.har} cannot be re-judged (${String((error as Error).message).split('\n')[0]})`,
});

/** A verified bundle's result with its re-judge of the entries held, or the one line that says why its HAR is no evidence. */
function withRejudge({ result, report }: Verification, har: HarMemberReader | undefined): EvidenceVerifyResult {
  if (!result.verified || !report) return result;
  const outcome = har?.outcome;
  if (!outcome) return { ...result, notes: [...result.notes, `no ${REPORT_FILES.har}: the rule statuses were not re-judged`] };
  // The hashes matched, so the HAR is the one bundled: one that does not parse, or whose entries
  // are not HAR entries, is no evidence, and says so in one line rather than a stack.
  if ('problem' in outcome) return { ...result, verified: false, problem: outcome.problem };
  if ('tooLarge' in outcome || 'spooled' in outcome)
    return {
      ...result,
      notes: [
        ...result.notes,
        `${REPORT_FILES.har} is over ${REJUDGE_BYTES / 1024 / 1024} MiB: hashed, its rule statuses not re-judged (verify keeps within its memory bound; verify the bundle file to re-judge it)`,
      ],
    };
  try {
    return withSummary(result, rejudgeSummary(rejudgeHar(outcome.entries as HarEntry[], report.target.fiatAccountIds), report));
  } catch (error) {
    return cannotRejudge(result, error);
  }
}

/** A verified bundle's result with the re-judge of its large HAR, read entry by entry from its spool file. */
async function withSpooledRejudge({ result, report }: Verification, spooled: string): Promise<EvidenceVerifyResult> {
  if (!report) return result;
  try {
    const rejudged = await rejudgeHarStream(() => new HarReader(spooled).entries(), report.target.fiatAccountIds);
    return withSummary(result, rejudgeSummary(rejudged, report));
  } catch (error) {
    return cannotRejudge(result, error);
  }
}

/**
 * Verifies a bundle held in memory (verifyBundle), then re-judges its recorded exchanges: a rule
 * status of conformance.json they contradict fails the verification with one line naming the rule.
 * A HAR over REJUDGE_BYTES is hashed only here; verifyEvidenceFile re-judges it.
 */
export function verifyEvidence(bytes: Buffer, publicKey?: KeyObject): EvidenceVerifyResult {
  const har = harWatch();
  return withRejudge(verifyHeldBundle(bytes, publicKey, har.watch), har.reader());
}

/**
 * verifyEvidence of a bundle file, read as a stream: within the memory bound whatever the file
 * holds. A HAR too large to hold parsed is copied to a private temporary folder as it is inflated
 * (after its hash is checked, the copy is what was hashed) and re-judged from there; removed after.
 * `rejudgeBytes`: the largest HAR held parsed (the tests make it small).
 */
export async function verifyEvidenceFile(
  file: string,
  publicKey?: KeyObject,
  progress?: InflateProgress,
  rejudgeBytes = REJUDGE_BYTES,
): Promise<EvidenceVerifyResult> {
  const spool = await mkdtemp(path.join(tmpdir(), 'conformance-verify-'));
  try {
    const har = harWatch(path.join(spool, REPORT_FILES.har), rejudgeBytes);
    const verification = await verifyBundleStream(createReadStream(file), publicKey, har.watch, progress);
    const outcome = har.reader()?.outcome;
    if (verification.result.verified && outcome && 'spooled' in outcome) return await withSpooledRejudge(verification, outcome.spooled);
    return withRejudge(verification, har.reader());
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

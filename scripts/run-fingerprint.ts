/**
 * `npm run fingerprint -- REPORT_DIR`: what a refactor must not change about a run, from its
 * conformance.json and exchanges.har: the verdict, the request count, each rule's status, cases
 * and coverage, each failure's message, and a digest of the requests sent (method, path, body; UUIDs and the run tag of
 * ref_ids masked, as they differ between runs of one seed). scripts/same-seed.sh compares the
 * fingerprints of two commits.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface HarEntry {
  request: { method: string; url: string; postData?: { text?: string } };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/**
 * `conformance-<seed>-<time>-<random>-N` (a ref_id, upper-cased by the case-variant case): only N
 * is the same from run to run; the tag alone (an identity's metadata.conformance_run) not at all.
 */
const RUN_TAG = /conformance-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+-?/gi;
/** Each identity's government id is drawn from its ref_id: it differs from run to run too. */
const CIP_ID = /"cip_id":"[^"]*"/g;
/** A government or CIP id quoted in a message (drawn from the ref_id, see CIP_ID). */
const GOVERNMENT_ID = /"[0-9-]{9,12}"/g;
/** Instants the target stamps (created_at, updated_at, a Date header): another run, another time. Midnights are dates of birth: kept. */
const INSTANT = /\d{4}-\d{2}-\d{2}T(?!00:00:00)\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})|[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/g;
/** A failure's message with what differs between runs of one seed masked: what a refactor must keep word for word. */
const masked = (text: string): string =>
  text
    .replace(GOVERNMENT_ID, '"GOVT-ID"')
    .replace(UUID, 'UUID')
    .replace(RUN_TAG, 'conformance-TAG-')
    .replace(INSTANT, 'INSTANT')
    .replace(/\d+ ?ms\b/g, 'N ms');

export function fingerprint(dir: string): Record<string, unknown> {
  const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
  const entries: HarEntry[] = JSON.parse(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')).log.entries;
  const requests = entries.map((e) =>
    `${e.request.method} ${new URL(e.request.url).pathname} ${e.request.postData?.text ?? ''}`
      .replace(UUID, 'UUID')
      .replace(RUN_TAG, 'conformance-TAG-')
      .replace(CIP_ID, '"cip_id":"*"'),
  );
  const rules = report.rules.map(
    (r: { id: string; status: string; cases: number; coverage?: { fixed: number; random: number; distinctInputs: number }; failures: unknown[] }) =>
      `${r.id} ${r.status} cases=${r.cases} fixed=${r.coverage?.fixed} random=${r.coverage?.random} distinct=${r.coverage?.distinctInputs} failures=${r.failures.length}`,
  );
  const failures = report.rules.flatMap((r: { id: string; failures: { message: string }[] }) => r.failures.map((f) => `${r.id}: ${masked(f.message)}`));
  return {
    verdict: report.summary.verdict,
    requests: report.summary.requests,
    stopped: report.stopped?.kind ?? null,
    sent: { entries: requests.length, digest: createHash('sha256').update(requests.sort().join('\n')).digest('hex').slice(0, 16) },
    rules,
    failures,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: npm run fingerprint -- REPORT_DIR');
    process.exit(2);
  }
  console.log(JSON.stringify(fingerprint(dir), null, 1));
}

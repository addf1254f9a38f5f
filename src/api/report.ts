/**
 * `fiat-identity-conformance/report`: for tools that write and merge reports (a CI gate over the
 * shards of one run, a report written from a run of one's own). The run and the report types are
 * in the library entry (`fiat-identity-conformance`). Stability marks as there: `@public` stable,
 * `@beta` may change in a minor version.
 */
export {
  /** @public */
  mergeShardReports,
  /** @public */
  type ShardInput,
} from '../report/compare/merge-reports.ts';
export {
  /** @public */
  exitCodeOf,
} from '../report/model/model.ts';
export {
  /** @beta */
  writeReports,
  /** @beta */
  type WriteReportsOptions,
  /** @beta */
  type WriteReportsResult,
} from '../report/files/write-reports.ts';

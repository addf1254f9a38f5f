/**
 * Reads a conformance.json written by this tool (any 1.x version; one before 1.7.0 has no observed
 * contract, see report-contract.ts): one clear UsageError line,
 * `<file>: <JSON pointer>: <what is wrong>`, for a file that is missing, not a regular file,
 * empty, not JSON, of another major version, not valid against
 * schemas/conformance-report.schema.json, or with a request that cannot be sent again. `diff`
 * and `replay` read reports through it, so a report it returns is safe to use.
 */
import { UsageError } from '../../core/errors.ts';
import { parseJsonText, readInputFile } from '../../core/json-file.ts';
import { oneLine } from '../../core/text.ts';
import { registry, type SchemaError } from '../../schema/registry.ts';
import { REPORT_VERSION, type ConformanceReport } from './model.ts';
import { recordedCase } from './recorded-case.ts';

const REPORT_SCHEMA = 'conformance-report';

/** What a pattern or format of the report schema asks, by field name: ajv would quote the regex. */
const WANTED: Record<string, string> = {
  url: 'an absolute http(s) URL',
  baseUrl: 'an absolute http(s) URL without user:password@',
  method: 'an HTTP method (a token, e.g. PUT)',
  reportVersion: 'a version 1.x.y',
  schemasHash: '64 lowercase hex digits',
  section: 'a section number such as 2.6',
  startedAt: 'an RFC 3339 date-time',
  date: 'a date YYYY-MM-DD',
  earliestAccepted: 'a date YYYY-MM-DD',
  latestAccepted: 'a date YYYY-MM-DD',
};

/** Keywords whose message says what was wanted but not what was there. */
const SHOW_VALUE = new Set(['type', 'enum', 'const', 'pattern', 'format', 'minimum', 'maximum', 'minLength']);

/** `/rules/0/failures: must be array, got null`: the pointer, the message, the value when short. */
function describeSchemaError(error: SchemaError): string {
  const at = error.instancePath || '(top level)';
  const params = error.params ?? {};
  let what = error.message;
  if (error.keyword === 'additionalProperties') what = `has a field ${JSON.stringify(params.additionalProperty)} no report version has`;
  const field = error.instancePath.split('/').at(-1) ?? '';
  if ((error.keyword === 'pattern' || error.keyword === 'format') && WANTED[field]) what = `must be ${WANTED[field]}`;
  if (error.keyword === 'enum') what = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  const shown = SHOW_VALUE.has(error.keyword) ? JSON.stringify(error.data === undefined ? null : error.data) : undefined;
  return `${at}: ${what}${shown !== undefined ? `, got ${oneLine(shown, 80)}` : ''}`;
}

export async function readReport(file: string): Promise<ConformanceReport> {
  return checkedReport(parseJsonText(await readInputFile(file), file), file);
}

/** `data` (parsed from `file`) as a report, or the UsageError line saying why it is not one (a bundle's conformance.json too). */
export function checkedReport(data: unknown, file: string): ConformanceReport {
  const version = (data as { reportVersion?: unknown } | null)?.reportVersion;
  if (typeof version === 'string' && /^\d+\./.test(version) && version.split('.')[0] !== REPORT_VERSION.split('.')[0]) {
    throw new UsageError(oneLine(`${file} is a version ${version} report; this tool reads version ${REPORT_VERSION.split('.')[0]}.x`, 300));
  }
  const errors = registry().validate(REPORT_SCHEMA, data);
  if (errors.length) throw new UsageError(oneLine(`${file} is not a valid conformance.json report: ${describeSchemaError(errors[0])}`, 400));
  const report = data as ConformanceReport;
  for (const [r, rule] of report.rules.entries()) {
    for (const [f, failure] of rule.failures.entries()) {
      const rebuilt = recordedCase(failure);
      if ('problem' in rebuilt) {
        throw new UsageError(oneLine(`${file} is not a valid conformance.json report: /rules/${r}/failures/${f}/request/url: ${rebuilt.problem}`, 400));
      }
    }
  }
  return report;
}

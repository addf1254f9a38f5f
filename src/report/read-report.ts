/**
 * Reads a conformance.json written by this tool (any 1.x version): one clear UsageError line for
 * a file that is missing, not JSON, of another major version, or not valid against
 * schemas/conformance-report.schema.json. `diff` and `replay` read reports through it.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';
import { registry } from '../schema/registry.ts';
import { REPORT_VERSION, type ConformanceReport } from './model.ts';

const REPORT_SCHEMA = 'conformance-report';

export async function readReport(file: string): Promise<ConformanceReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const version = (data as { reportVersion?: unknown } | null)?.reportVersion;
  if (typeof version === 'string' && version.split('.')[0] !== REPORT_VERSION.split('.')[0]) {
    throw new UsageError(`${file} is a version ${version} report; this tool reads version ${REPORT_VERSION.split('.')[0]}.x`);
  }
  const errors = registry().validate(REPORT_SCHEMA, data);
  if (errors.length) {
    const first = errors[0];
    throw new UsageError(`${file} is not a valid conformance.json report: ${first.instancePath || '/'} ${first.message}`);
  }
  return data as ConformanceReport;
}

/**
 * The three runs of the matrix tests: the embedded server, its strict variant (open points
 * restricted: names of at most 200 characters, address lines of at most 35) and the embedded
 * server with a fault that refuses a valid update (an owner with one name) in its own words.
 * Small (3 random cases per rule, one seed): about a second each.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';

export const MATRIX_SEED = 1;
export const MATRIX_FAULT = 'fa-owner-both-names-required';
/** The rule the fault fails: a documented rule of the update operation. */
export const FAULT_RULE = 'fa.valid-accepted';
/** The names the tests give the columns, in the order of the runs. */
export const MATRIX_NAMES = ['embedded', 'strict', 'faulty'] as const;

export interface MatrixRuns {
  embedded: ConformanceReport;
  strict: ConformanceReport;
  faulty: ConformanceReport;
}

export async function matrixRuns(): Promise<MatrixRuns> {
  const run = async (options: Partial<Parameters<typeof runEmbedded>[0]>) => (await runEmbedded({ runs: 3, seed: MATRIX_SEED, ...options })).report;
  return { embedded: await run({}), strict: await run({ strictServer: true }), faulty: await run({ fault: MATRIX_FAULT }) };
}

/** Writes each report as `<dir>/<name>/conformance.json` and returns the files, in the order of MATRIX_NAMES. */
export async function writeMatrixRuns(dir: string, runs: MatrixRuns): Promise<string[]> {
  const files: string[] = [];
  for (const name of MATRIX_NAMES) {
    const file = path.join(dir, name, 'conformance.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(runs[name], null, 2));
    files.push(file);
  }
  return files;
}

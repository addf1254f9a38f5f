/**
 * The evidence bundle of a run (`run --bundle FILE`): its path checked and its key read before the
 * first request, so a path that cannot take it or a bad key file is a usage error that sends nothing; the bundle written from the report folder once
 * the reports are, for every run that wrote them (non-conformant, stopped and aborted ones too).
 */
import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { UsageError } from '../core/errors.ts';
import { REPORT_DIR_FILES } from '../report/files/write-reports.ts';
import { readPrivateKey } from '../report/files/bundle/signature.ts';
import { checkBundleOutput, writeEvidenceFiles } from '../report/files/bundle/write-bundle.ts';
import type { RunConfig } from './run-config.ts';

/** The bundle of one run, ready to write once its reports are. */
export interface RunBundle {
  /** Writes the bundle of the report folder; resolves to its path. Throws what kept it from being written. */
  write(): Promise<string>;
}

/** The run's bundle writer, or undefined without --bundle; the key is read now (a UsageError for a bad one). */
export async function prepareRunBundle(config: RunConfig): Promise<RunBundle | undefined> {
  const settings = config.bundle;
  if (!settings) return undefined;
  // The bundle is written after the reports: over one of them it would replace the evidence it holds.
  if (REPORT_DIR_FILES.some((name) => path.resolve(config.reportDir, name) === path.resolve(settings.file)))
    throw new UsageError(`--bundle ${settings.file} is a file of the report folder; give another path, e.g. evidence.tar.gz`);
  // A device, a FIFO, a link or a folder there, or a folder missing: refused before any request (the report folder exists by now).
  await checkBundleOutput('--bundle', settings.file);
  const signKey: KeyObject | undefined = settings.signKeyFile !== undefined ? await readPrivateKey(settings.signKeyFile) : undefined;
  return {
    async write() {
      // Streamed from the report folder to the file: the run's memory bound holds for its bundle too.
      await writeEvidenceFiles(config.reportDir, settings.file, {
        ...(signKey ? { signKey } : {}),
        redactPersonal: settings.redactPersonal,
        ...(settings.commandLine ? { commandLine: settings.commandLine } : {}),
      });
      return settings.file;
    },
  };
}

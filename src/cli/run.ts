/**
 * `conformance run`: resolve the settings (or print the help), then prepare the run (the embedded
 * server when no target is given), run the harness, print the per-rule table and write the
 * reports (src/cli/run-execute.ts). The report is written even when the target cannot be reached
 * or refuses the credentials (verdict "error", exit 3), and when the user interrupts the run
 * (verdict "interrupted", exit 130/143/129).
 */
import { randomInt } from 'node:crypto';
import type { CliIO } from './io.ts';
import { resolveSettings, runHelp } from '../run/run-config.ts';
import { settingsOfArgv } from '../run/given-settings.ts';
import { commandLineWithoutSecrets } from '../run/command-line.ts';

export async function run(argv: string[], io: CliIO): Promise<number> {
  // The flags and their environment twins, resolved by the resolver the library's options go through.
  const settings = settingsOfArgv(argv, io.env);
  if (!settings) {
    io.out(runHelp());
    return 0;
  }
  const resolved = resolveSettings(settings, () => randomInt(1, 2 ** 31 - 1));
  // The bundle's manifest records the command as typed (its secrets replaced), not only the re-run command.
  const config = resolved.bundle ? { ...resolved, bundle: { ...resolved.bundle, commandLine: commandLineWithoutSecrets(['run', ...argv]) } } : resolved;
  // The engine, the reports and the embedded server load only for a run: `run --help` stays quick.
  return (await import('./run-execute.ts')).executeRun(config, io);
}

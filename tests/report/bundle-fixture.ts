/** A real embedded run's report folder, and the helpers the bundle tests share (keys, repacking). */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { orchestrateRun } from '../../src/run/orchestrate-run.ts';
import { restorePatienceUnder } from '../../src/run/fault-matrix.ts';
import { FAULTS } from '../../src/server/faults.ts';
import { runConfig } from '../../src/run/run-config.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';
import { type ArchiveMember, readTarGz, writeTarGz } from '../../src/report/files/bundle/tar-archive.ts';

/** Runs the embedded server (with `fault`) with a few random cases per rule, writing every report into a fresh folder. */
export async function embeddedReportFolder(seed: number, fault?: string): Promise<{ dir: string; report: ConformanceReport }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bundle-run-'));
  const definition = FAULTS.find((f) => f.name === fault);
  const config = runConfig({ seed, profile: 'custom', runs: 3, reportDir: dir, ...(definition ? { fault, ...restorePatienceUnder(definition) } : {}) });
  const outcome = await orchestrateRun(config, { reports: true });
  if (outcome.unwritten.length) throw new Error(`reports not written: ${JSON.stringify(outcome.unwritten)}`);
  return { dir, report: outcome.report };
}

export function keyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ed25519');
}

/** The archive with `change` applied to its members, packed again as the writer packs. */
export function repack(bytes: Buffer, change: (members: ArchiveMember[]) => ArchiveMember[]): Buffer {
  return writeTarGz(change(readTarGz(bytes)));
}

/** `data` with the byte at its middle replaced by another. */
export function flipMiddleByte(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  const at = Math.floor(copy.length / 2);
  copy[at] = copy[at] === 0x41 ? 0x42 : 0x41;
  return copy;
}

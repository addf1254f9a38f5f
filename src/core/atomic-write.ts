/**
 * Writes a JSON file durably and atomically (beside itself, synced, renamed over it: a run killed
 * while writing leaves the old file whole), mode 0600, a credential a target echoed into it
 * replaced as in every report.
 */
import { open, rename, rm } from 'node:fs/promises';
import { REDACTED } from './redaction.ts';

export async function writeJsonAtomically(file: string, value: unknown, secrets: readonly string[] = []): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const text = secrets.filter((x) => x.length >= 4).reduce((t, secret) => t.split(secret).join(REDACTED), `${JSON.stringify(value, null, 2)}\n`);
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

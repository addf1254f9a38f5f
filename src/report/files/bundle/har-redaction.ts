/**
 * `--redact-personal` over exchanges.har as a stream: its personal values gathered entry by entry
 * (one entry a line, har-lines.ts), then the file redacted line by line into the bundle's staging
 * folder, marked on its head line and hashed as it is written: a deep run's 15 MB HAR is never
 * one string. A HAR in another layout (an older one-line file) is read and redacted whole.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { sha256 } from './manifest.ts';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { entryOfLine, fileLines, isHarHead } from '../har-lines.ts';
import { HAR_FILE } from '../har-file.ts';
import { personalValuesOfEntry, personalValuesOfHar } from './personal-values.ts';
import type { PersonalRedaction } from './personal-redaction.ts';
import { markedHead, markRedactedHar } from './redaction-mark.ts';

/** Every personal value of the HAR file's bodies, read entry by entry. */
export async function personalValuesOfHarFile(file: string): Promise<Set<string>> {
  const out = new Set<string>();
  let first = true;
  for await (const line of fileLines(file)) {
    if (first && !isHarHead(line)) return personalValuesOfHar(await readFile(file, 'utf8'));
    if (!first) {
      const entry = entryOfLine(line);
      if (entry !== undefined) personalValuesOfEntry(entry, out);
    }
    first = false;
  }
  return out;
}

/** What was written: the staged file's SHA-256 and size. */
export interface StagedDigest {
  sha256: string;
  size: number;
}

/** Writes the HAR `file` redacted and marked to `staged`, line by line; its digest as written. */
export async function redactHarFile(file: string, staged: string, redaction: PersonalRedaction): Promise<StagedDigest> {
  const out = createWriteStream(staged, { flags: 'wx' });
  const hash = createHash('sha256');
  let size = 0;
  const write = async (text: string) => {
    hash.update(text, 'utf8');
    size += Buffer.byteLength(text, 'utf8');
    if (!out.write(text, 'utf8')) await once(out, 'drain');
  };
  try {
    let index = 0;
    for await (const line of fileLines(file)) {
      if (index === 0 && !isHarHead(line)) {
        // Another layout: read whole, as it always was.
        out.on('error', () => undefined);
        out.destroy();
        return await redactWholeHar(file, staged, redaction);
      }
      const redacted = redaction.redact(line, HAR_FILE);
      await write(`${index === 0 ? '' : '\n'}${index === 0 ? markedHead(redacted) : redacted}`);
      index++;
    }
    out.end();
    await finished(out);
  } catch (error) {
    // A write still pending fails on the destroyed stream: the first error is the one thrown.
    out.on('error', () => undefined);
    out.destroy();
    throw error;
  }
  return { sha256: hash.digest('hex'), size };
}

async function redactWholeHar(file: string, staged: string, redaction: PersonalRedaction): Promise<StagedDigest> {
  const data = Buffer.from(markRedactedHar(redaction.redact(await readFile(file, 'utf8'), HAR_FILE)), 'utf8');
  const out = createWriteStream(staged, { flags: 'w' });
  out.end(data);
  await finished(out);
  return { sha256: sha256(data), size: data.length };
}

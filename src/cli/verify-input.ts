/**
 * What `conformance verify` was given, told by its first bytes with one open: a bundle (gzip,
 * read as a stream afterwards) or a DSSE envelope (a small JSON file with a payloadType, read
 * whole). Anything else, and a file that cannot be read (missing, a folder), is a usage error.
 */
import { open } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';
import { looksLikeGzip } from '../report/files/bundle/tar-archive.ts';

/** An envelope's cap: an attestation is a few KiB; a JSON file larger than this is no attestation of ours. */
const ENVELOPE_LIMIT = 16 * 1024 * 1024;

export type VerifyInput = { kind: 'bundle' } | { kind: 'envelope'; bytes: Buffer };

const notABundle = (file: string) => new UsageError(`${file} is not a bundle (not a .tar.gz); make one with run --bundle FILE or conformance bundle`);

/** The kind of `file`, or undefined when it is neither; only the first bytes of a large or gzip file are read. */
async function kindOf(file: string): Promise<VerifyInput | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64));
    const start = head.subarray(0, (await handle.read(head, 0, head.length, 0)).bytesRead);
    if (looksLikeGzip(start)) return { kind: 'bundle' };
    if (size > ENVELOPE_LIMIT || !/^\s*\{/.test(start.toString('utf8'))) return undefined;
    const bytes = await handle.readFile();
    return bytes.includes('"payloadType"') ? { kind: 'envelope', bytes } : undefined;
  } finally {
    await handle.close();
  }
}

/** A bundle or an envelope; a UsageError naming the file otherwise. */
export async function verifyInput(file: string): Promise<VerifyInput> {
  let input: VerifyInput | undefined;
  try {
    input = await kindOf(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!input) throw notABundle(file);
  return input;
}

/** Refuses anything but a bundle (--bundle's file); the bundle itself is read as a stream afterwards. */
export async function checkBundleFile(file: string): Promise<void> {
  if ((await verifyInput(file)).kind !== 'bundle') throw notABundle(file);
}

/**
 * JSON input files the user names (a report for replay and diff, a payload for validate): one
 * UsageError line for anything that is not a regular file holding one JSON text, never a hang or a
 * stack trace.
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { UsageError } from './errors.ts';
import { oneLine } from './text.ts';

/** Far above any report this tool writes (bodies are capped); a larger file is not one of ours. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** The file's text, or a UsageError: missing, a folder, a FIFO or device, too large. */
export async function readInputFile(file: string): Promise<string> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever (a FIFO is refused below).
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? oneLine((error as Error).message)}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new UsageError(`${file} is a folder; give the file itself`);
    // A FIFO or a device (/dev/zero) would block or never end.
    if (!info.isFile()) throw new UsageError(`${file} is not a regular file (a FIFO, socket or device); give a file`);
    if (info.size > MAX_INPUT_BYTES) throw new UsageError(`${file} is ${info.size} bytes, more than the ${MAX_INPUT_BYTES} this tool reads`);
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? oneLine((error as Error).message)}`);
  } finally {
    await handle.close();
  }
}

/** One JSON text, or a UsageError naming `label`: empty, a byte order mark, not JSON. */
export function parseJsonText(text: string, label: string): unknown {
  if (!text.trim()) throw new UsageError(`${label} is empty`);
  // This tool never writes one; an editor that saved it did (RFC 8259 lets a reader refuse it).
  if (text.startsWith('\uFEFF')) throw new UsageError(`${label} starts with a byte order mark (U+FEFF): save it as UTF-8 without one`);
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 quotes the text near the error, new lines included.
    throw new UsageError(`${label} is not JSON (${oneLine((error as Error).message, 160)})`);
  }
}

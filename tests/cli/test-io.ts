/** A CliIO for in-process command tests: the lines each stream got, no environment, no terminal. */
import type { CliIO } from '../../src/cli/io.ts';

export function testIO(): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, isTTY: false, readStdin: async () => '' };
  return { io, out, err };
}

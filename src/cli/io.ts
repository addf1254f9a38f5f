import { processInterrupts, type Interruption } from './interrupts.ts';
import type { TerminalStream } from '../report/terminal/status-line.ts';

/** Where a command writes and what environment it sees; tests pass their own. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Environment after .env is loaded; the only place commands read settings from (colour too: NO_COLOR, FORCE_COLOR). */
  env: Record<string, string | undefined>;
  /** True when stdout is a terminal (colour of the lines on stdout). */
  isTTY: boolean;
  /** stderr when it is a terminal: where the status line of a run is drawn; absent otherwise. */
  statusTerminal?: TerminalStream;
  /** Standard input, for `validate <schema> -`. */
  readStdin: () => Promise<string>;
  /** Catches SIGINT/SIGTERM/SIGHUP for the length of a run; absent: signals act as usual. */
  interrupts?: (notice: (name: string) => void) => Interruption;
}

export function processIO(): CliIO {
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    ...(process.stderr.isTTY ? { statusTerminal: { write: (text: string) => void process.stderr.write(text), columns: () => process.stderr.columns } } : {}),
    interrupts: processInterrupts,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Colour on the console, decided once per stream from the environment the CLI was given (io.env;
 * nothing here reads process.env): FORCE_COLOR asks for it even into a pipe (FORCE_COLOR=0 or
 * false refuses it), a non-empty NO_COLOR refuses it (https://no-color.org), and otherwise a
 * terminal gets colour unless TERM is dumb. FORCE_COLOR wins over NO_COLOR, as in Node itself:
 * it is the narrower, more deliberate request. Plain SGR codes: eight colours work everywhere.
 */
import type { ReportRule, Verdict } from '../model/model.ts';

type Env = Record<string, string | undefined>;

/** Whether a stream gets colour. `isTTY`: the stream is a terminal. */
export function colourEnabled(env: Env, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !/^(0|false)$/i.test(force.trim());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** What the console paints: each function returns its text unchanged when colour is off. */
export interface Palette {
  readonly enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain = (text: string) => text;

export function palette(enabled: boolean): Palette {
  if (!enabled) return { enabled, red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
  return { enabled, red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

/** A rule's status in its colour: passed green, failed and error red, inconclusive yellow, skipped dim. */
export function paintStatus(p: Palette, status: ReportRule['status'], text: string): string {
  switch (status) {
    case 'passed':
      return p.green(text);
    case 'failed':
    case 'error':
      return p.red(text);
    case 'inconclusive':
      return p.yellow(text);
    case 'skipped':
      return p.dim(text);
  }
}

/** A verdict in its colour: conformant green, non-conformant and error red, the others yellow. */
export function paintVerdict(p: Palette, verdict: Verdict, text: string = verdict): string {
  if (verdict === 'conformant') return p.bold(p.green(text));
  if (verdict === 'non-conformant' || verdict === 'error') return p.bold(p.red(text));
  return p.bold(p.yellow(text));
}

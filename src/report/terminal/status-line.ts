/**
 * One status line at the bottom of a terminal, redrawn in place: `\r`, the text cut to one
 * column less than the terminal's width (so the cursor never reaches the last column and the
 * terminal never wraps it), then erase to the end of the row. Clearing erases only the row the
 * cursor is on, which is the status line itself: the cursor never moves up, so no other line can
 * be erased. Whoever prints a line while the status is shown clears it first (`lineWriter`).
 *
 * Why not log-update: it redraws by moving the cursor up over as many rows as it printed last
 * time, wraps long text instead of cutting it, and brings cli-cursor/restore-cursor, which hook
 * the process's signals (the run handles SIGINT itself). One row that never wraps needs none of it.
 */
import { oneLine } from '../../core/text.ts';
import { fitWidth } from './display-width.ts';

/** A terminal stream: raw writes, and its width now (a resized window counts). */
export interface TerminalStream {
  write(text: string): void;
  /** Columns of the terminal; undefined when unknown (80 is assumed). */
  columns(): number | undefined;
}

/** Erases the row the cursor is on and returns to its start. */
const CLEAR_ROW = '\r\u001b[2K';
/** Erases from the cursor to the end of the row. */
const CLEAR_REST = '\u001b[K';

export class StatusLine {
  private text: string | undefined;
  private shown = false;

  constructor(private readonly stream: TerminalStream) {}

  /** Draws `text` (made one line, cut to the width) in place of the previous status. */
  show(text: string): void {
    this.text = text;
    this.draw();
  }

  /** Erases the status line, if shown; `show` or `restore` draws it again. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write(CLEAR_ROW);
    this.shown = false;
  }

  /** Draws the last status again after a line was printed above it (nothing once `end` was called). */
  restore(): void {
    if (this.text !== undefined && !this.shown) this.draw();
  }

  /** Clears the line for good: nothing is drawn after this. */
  end(): void {
    this.clear();
    this.text = undefined;
  }

  private draw(): void {
    if (this.text === undefined) return;
    const width = Math.max(1, (this.stream.columns() ?? 80) - 1);
    this.stream.write(`\r${fitWidth(oneLine(this.text), width)}${CLEAR_REST}`);
    this.shown = true;
  }
}

/**
 * A line writer that clears the status line before the line and draws it again after: every line
 * printed while a run goes (on stdout or stderr) then lands above the status, intact.
 */
export function lineWriter(status: StatusLine | undefined, write: (line: string) => void): (line: string) => void {
  if (!status) return write;
  return (line) => {
    status.clear();
    write(line);
    status.restore();
  };
}

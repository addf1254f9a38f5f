/**
 * A terminal of fixed width for tests: interprets what a program writes (printable text by
 * display width, \r, \n, erase-line `ESC[K` / `ESC[2K`, cursor-up `ESC[nA`, colour codes as
 * nothing) into rows of screen text, and counts every time text reached past the last column and
 * wrapped, as a real terminal would.
 */
import { displayWidth } from '../../src/report/terminal/display-width.ts';

export class VirtualTerminal {
  readonly rows: string[][] = [[]];
  row = 0;
  col = 0;
  /** Times printed text ran past the last column onto the next row. */
  wraps = 0;
  /** Writes in order, for assertions on what was sent. */
  readonly writes: string[] = [];

  constructor(readonly columns = 80) {}

  /** A TerminalStream (status-line.ts) writing here. */
  stream() {
    return { write: (text: string) => this.write(text), columns: () => this.columns };
  }

  /** A line writer, as `io.out`/`io.err` of a CLI: the text and a newline. */
  line = (text: string): void => this.write(text + '\n');

  write(text: string): void {
    this.writes.push(text);
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let i = 0;
    while (i < text.length) {
      const sequence = /^\u001b\[([0-9;?]*)([A-Za-z])/.exec(text.slice(i));
      if (sequence) {
        this.control(sequence[1], sequence[2]);
        i += sequence[0].length;
        continue;
      }
      const ch = text[i];
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') this.newRow();
      else {
        const [{ segment }] = segmenter.segment(text.slice(i));
        this.put(segment);
        i += segment.length;
        continue;
      }
      i++;
    }
  }

  /** The screen: each row's text, trailing spaces trimmed. */
  screen(): string[] {
    return this.rows.map((cells) => cells.join('').trimEnd());
  }

  private newRow(): void {
    this.row++;
    this.col = 0;
    while (this.rows.length <= this.row) this.rows.push([]);
  }

  private put(grapheme: string): void {
    const width = displayWidth(grapheme);
    if (this.col + width > this.columns) {
      this.wraps++;
      this.newRow();
    }
    const cells = this.rows[this.row];
    while (cells.length < this.col) cells.push(' ');
    cells[this.col] = grapheme;
    // A wide character takes its second cell too.
    for (let k = 1; k < width; k++) cells[this.col + k] = '';
    this.col += width;
  }

  private control(args: string, command: string): void {
    const cells = this.rows[this.row];
    if (command === 'K') {
      if (args === '2') cells.length = 0;
      else cells.length = Math.min(cells.length, this.col);
    } else if (command === 'A') this.row = Math.max(0, this.row - Number(args || 1));
    // Colour (m) and anything else moves nothing.
  }
}

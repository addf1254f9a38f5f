/**
 * `conformance self-test`: runs the harness against every fault of the embedded server and every
 * allowed reading, on the plain server and on its strict variant, and prints what it catches side
 * by side. Exit 0 when every fault is detected on both and no faithful reading has a failure.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { wholeNumberFlag } from '../run/whole-number-flag.ts';
import { UsageError } from '../core/errors.ts';
import {
  FAULTS,
  READINGS,
  SERVER_VARIANTS,
  faultCaught,
  readingClean,
  runFault,
  runReading,
  type FaultOutcome,
  type ReadingOutcome,
  type ServerVariant,
} from '../run/fault-matrix.ts';
import { getRule } from '../core/catalogue.ts';
import { mapWithConcurrency } from '../engine/map-with-concurrency.ts';

const HELP = `usage: conformance self-test [--runs N] [--seed N] [--fault NAME]... [--server plain|strict]

Runs the harness against the embedded server once per fault (each breaks one rule) and once
per allowed reading of the document (placements, 400/422, 409/same identity, 200/201,
metadata replace/merge, nulls in an update refused or ignored ...), on the plain server and on its strict variant (the open points
restricted as the vendor's OpenAPI does, as a correct server may), and prints the matrix with
one column per server.
  --runs N        random cases per rule (default 10)
  --seed N        seed of every run (default 1)
  --fault NAME    only this fault (repeatable); readings are then skipped
  --server S      only this server, plain or strict (default both)`;

/** Runs at once: the server and the harness share this process, and a run waits on its own requests. */
const CONCURRENCY = 2;

export async function selfTest(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('self-test', argv, {
    runs: { type: 'string' },
    seed: { type: 'string' },
    fault: { type: 'string', multiple: true },
    server: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const runs = wholeNumberFlag('--runs', values.runs) ?? 10;
  const seed = wholeNumberFlag('--seed', values.seed, { min: -Number.MAX_SAFE_INTEGER }) ?? 1;
  const names = values.fault ?? [];
  const unknown = names.filter((n) => !FAULTS.some((f) => f.name === n));
  if (unknown.length) throw new UsageError(`unknown fault(s) ${unknown.join(', ')}; \`conformance serve --list-faults\` lists them`);
  if (values.server !== undefined && !SERVER_VARIANTS.includes(values.server as ServerVariant)) {
    throw new UsageError(`--server must be plain or strict, got "${values.server}"`);
  }
  const servers = values.server ? [values.server as ServerVariant] : SERVER_VARIANTS;
  const faults = names.length ? FAULTS.filter((f) => names.includes(f.name)) : FAULTS;
  const readings = names.length ? [] : READINGS;

  // One pool for every run, so the readings do not wait for the slowest fault.
  type Job = { fault: (typeof faults)[number]; server: ServerVariant } | { reading: (typeof readings)[number]; server: ServerVariant };
  const jobs: Job[] = [
    ...faults.flatMap((fault) => servers.map((server) => ({ fault, server }))),
    ...readings.flatMap((reading) => servers.map((server) => ({ reading, server }))),
  ];
  const outcomes = await mapWithConcurrency(
    jobs,
    CONCURRENCY,
    (job): Promise<FaultOutcome | ReadingOutcome> =>
      'fault' in job ? runFault(job.fault, runs, seed, job.server) : runReading(job.reading, runs, seed, job.server),
  );
  const faultOutcomes = outcomes.filter((o): o is FaultOutcome => 'fault' in o);
  const readingOutcomes = outcomes.filter((o): o is ReadingOutcome => 'reading' in o);

  io.out(`fault matrix: ${faults.length} faults, seed ${seed}, ${runs} random cases per rule, on the ${servers.join(' and the ')} server`);
  printRows(
    io,
    ['fault', 'rule'],
    servers,
    faults.map((fault) => {
      const rule = getRule(fault.ruleId);
      return {
        label: [fault.name, `${rule.id} (${rule.basis}, §${rule.section})`],
        cells: servers.map((s) => faultCell(faultOutcomes.find((o) => o.fault === fault && o.server === s)!)),
      };
    }),
  );
  if (readings.length) {
    io.out('faithful server, every allowed reading (harness --strict):');
    printRows(
      io,
      ['reading'],
      servers,
      readings.map((reading) => ({
        label: [
          Object.entries(reading)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
        ],
        cells: servers.map((s) => readingCell(readingOutcomes.find((o) => o.reading === reading && o.server === s)!)),
      })),
    );
  }
  const judged = [...faultOutcomes.filter((o) => o.hidden === undefined), ...readingOutcomes];
  const ok = (o: FaultOutcome | ReadingOutcome) => ('fault' in o ? faultCaught(o) : readingClean(o));
  const failed = judged.filter((o) => !ok(o)).length;
  const perServer = servers.map((s) => {
    const mine = judged.filter((o) => o.server === s);
    return `${s} ${mine.filter(ok).length}/${mine.length}`;
  });
  const hidden = faultOutcomes.length - faultOutcomes.filter((o) => o.hidden === undefined).length;
  io.out(
    `${judged.length - failed} passed, ${failed} failed (${perServer.join(', ')})${hidden ? `; ${hidden} not applicable (the defect is hidden on that server)` : ''}`,
  );
  return failed ? 1 : 0;
}

/** One cell of a row: what is shown in the column, whether it passed, and the details printed under the row. */
interface Cell {
  text: string;
  ok: boolean;
  notes: string[];
}

function faultCell(o: FaultOutcome): Cell {
  if (o.hidden !== undefined) return { text: 'n/a (hidden)', ok: true, notes: [`hidden: ${o.hidden}`] };
  const expected = o.fault.expect ?? 'failed';
  const seen = o.detected ? (expected === 'failed' ? 'detected' : expected) : 'MISSED';
  const others = o.failedRules.filter((r) => r !== o.fault.ruleId);
  return {
    text: `${seen}, exit ${o.exitCode}, ${o.requests} requests${o.firstDetectionAt !== undefined ? `, first at ${o.firstDetectionAt}` : ''}`,
    ok: faultCaught(o),
    notes: [...(o.wrongBlame.length ? [`WRONGLY BLAMED: ${o.wrongBlame.join(', ')}`] : []), ...(others.length ? [`also failed: ${others.join(', ')}`] : [])],
  };
}

function readingCell(o: ReadingOutcome): Cell {
  const ok = readingClean(o);
  const said = o.failedRules.length ? `${o.failedRules.length} FALSE ALARMS` : ok ? '0 failures, conformant' : `0 failures but ${o.verdict}`;
  return { text: `${said}, ${o.requests} requests`, ok, notes: o.failedRules.length ? [`FALSE ALARMS: ${o.failedRules.join(', ')}`] : [] };
}

/** A header and one line per row, the label columns then one column per server, each row's notes under it. */
function printRows(io: CliIO, labels: string[], servers: readonly ServerVariant[], rows: { label: string[]; cells: Cell[] }[]): void {
  const columns = [...labels, ...servers];
  const widths = columns.map((title, i) =>
    Math.max(title.length, ...rows.map((r) => (i < labels.length ? r.label[i] : r.cells[i - labels.length].text).length)),
  );
  const line = (cells: string[]) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]) : c)).join('  ');
  io.out(`    ${line(columns)}`);
  for (const row of rows) {
    io.out(`  ${row.cells.every((c) => c.ok) ? '✓' : '✗'} ${line([...row.label, ...row.cells.map((c) => c.text)])}`);
    row.cells.forEach((cell, i) => {
      for (const note of cell.notes) io.out(`      ${servers[i]}: ${note}`);
    });
  }
}

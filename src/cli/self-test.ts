/**
 * `conformance self-test`: runs the harness against every fault of the embedded server and every
 * allowed reading, and prints what it catches. Exit 0 when every fault is detected and no
 * faithful reading has a failure.
 */
import type { CliIO } from './io.ts';
import { parseCommandArgs } from '../run/command-args.ts';
import { wholeNumberFlag } from '../run/whole-number-flag.ts';
import { UsageError } from '../core/errors.ts';
import { FAULTS, READINGS, runFault, runReading } from '../run/fault-matrix.ts';
import { getRule } from '../core/catalogue.ts';
import { mapWithConcurrency } from '../engine/map-with-concurrency.ts';

const HELP = `usage: conformance self-test [--runs N] [--seed N] [--fault NAME]...

Runs the harness against the embedded server once per fault (each breaks one rule) and once
per allowed reading of the document (placements, 400/422, 409/same identity, 200/201,
metadata replace/merge), and prints the matrix.
  --runs N        random cases per rule (default 10)
  --seed N        seed of every run (default 1)
  --fault NAME    only this fault (repeatable); readings are then skipped`;

export async function selfTest(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('self-test', argv, {
    runs: { type: 'string' },
    seed: { type: 'string' },
    fault: { type: 'string', multiple: true },
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
  const faults = names.length ? FAULTS.filter((f) => names.includes(f.name)) : FAULTS;

  let passed = 0;
  let failed = 0;
  io.out(`fault matrix: ${faults.length} faults, seed ${seed}, ${runs} random cases per rule`);
  const width = Math.max(...faults.map((f) => f.name.length));
  const outcomes = await mapWithConcurrency(faults, 2, (f) => runFault(f, runs, seed));
  for (const o of outcomes) {
    const rule = getRule(o.fault.ruleId);
    const ok = o.blocks && !o.wrongBlame.length;
    ok ? passed++ : failed++;
    const expected = o.fault.expect ?? 'failed';
    const seen = o.detected ? (expected === 'failed' ? 'detected' : expected) : 'MISSED';
    const others = o.failedRules.filter((r) => r !== o.fault.ruleId);
    io.out(
      `  ${ok ? '✓' : '✗'} ${o.fault.name.padEnd(width)}  ${rule.id} (${rule.basis}, §${rule.section})  ${seen}, exit ${o.exitCode}, ${o.requests} requests` +
        (o.firstDetectionAt !== undefined ? `, first seen at request ${o.firstDetectionAt}` : '') +
        (o.wrongBlame.length ? `; WRONGLY BLAMED: ${o.wrongBlame.join(', ')}` : '') +
        (others.length ? `; also failed: ${others.join(', ')}` : ''),
    );
  }
  if (!names.length) {
    io.out(`faithful server, every allowed reading (strict):`);
    for (const o of await mapWithConcurrency(READINGS, 2, (r) => runReading(r, runs, seed))) {
      const ok = o.failedRules.length === 0 && o.verdict === 'conformant';
      ok ? passed++ : failed++;
      const reading = Object.entries(o.reading)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const said = o.failedRules.length ? `FALSE ALARMS: ${o.failedRules.join(', ')}` : ok ? '0 failures, conformant' : `0 failures but ${o.verdict}`;
      io.out(`  ${ok ? '✓' : '✗'} ${reading}  ${said}, ${o.requests} requests`);
    }
  }
  io.out(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

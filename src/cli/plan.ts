/**
 * `conformance plan`: what `conformance run` with the same options would send, and nothing sent:
 * no probe, no reachability check, no token request, no server started (src/run/plan-summary.ts).
 */
import { randomInt } from 'node:crypto';
import type { CliIO } from './io.ts';
import { resolveSettings, runHelp } from '../run/run-config.ts';
import { settingsOfArgv } from '../run/given-settings.ts';

export async function plan(argv: string[], io: CliIO): Promise<number> {
  const settings = settingsOfArgv(argv, io.env, 'plan');
  if (!settings) {
    io.out(planHelp());
    return 0;
  }
  // A plan sends nothing: credentials are neither asked for nor used.
  const config = resolveSettings(settings, () => randomInt(1, 2 ** 31 - 1), { sends: false });
  const { planSummary, planLines } = await import('../run/plan-summary.ts');
  const summary = await planSummary(config);
  if (config.json) io.out(JSON.stringify(summary, null, 2));
  else for (const line of planLines(summary)) io.out(line);
  return 0;
}

function planHelp(): string {
  const [, ...rest] = runHelp().split('\n');
  return [
    'usage: conformance plan [options of conformance run]',
    '',
    'Prints what `conformance run` with the same options would send to a faithful target, per phase',
    '(probe, fixed cases, scenarios, random cases; shrinking as "at most") and per rule, the fiat accounts',
    'it would change, the identities it would create and the time at the rate limit; --json prints it as',
    'JSON. Sends nothing: no probe, no reachability check, no token request, so it needs no credentials.',
    'Give the same --seed as the run (without one the seed is random).',
    ...rest,
  ].join('\n');
}

/**
 * The terminal side of `conformance run`, once src/cli/run.ts has resolved its settings: the run
 * itself (report folder, target, HAR, reports, the aborted report, interrupts, reports that could
 * not be written) is src/run/orchestrate-run.ts, as for the library; here are the lines it
 * prints, the progress, colour, the GitHub annotations and the --json result, passed to it as
 * hooks and listeners. Apart from run.ts so that `conformance run --help` loads none of it.
 *
 * What goes where: the human lines on stdout (on stderr under --json, whose one JSON result is
 * then alone on stdout; only the verdict and reports lines under --quiet); errors on stderr;
 * progress on a status line of stderr when it is a terminal, else a plain line at most every
 * 30 s. Every line printed while the status line shows clears it first, so none is erased.
 */
import { formatDuration } from '../core/duration.ts';
import path from 'node:path';
import type { CliIO } from './io.ts';
import { EXIT } from '../core/errors.ts';
import type { BundleSettings, RunConfig } from '../run/run-config.ts';
import { orchestrateRun, type RunHooks } from '../run/orchestrate-run.ts';
import { budgetCutLine, plannedRunLine, ruledOutRunLine, ruleFilterLine } from '../run/planned-run.ts';
import { closingLine, createConsoleReporter, verdictLine } from '../report/terminal/console.ts';
import type { ReportListener } from '../report/model/report-events.ts';
import { REPORT_FILES } from '../report/files/write-reports.ts';
import { CREATED_IDENTITIES_FILE } from '../report/files/created-identities.ts';
import { githubAnnotations } from '../report/terminal/github-annotations.ts';
import { Redactor } from '../report/model/redact.ts';
import type { ConformanceReport } from '../report/model/model.ts';
import { INTERRUPT_GRACE_MS } from '../engine/transport/interruptible.ts';
import { JOURNAL_FILE } from '../engine/restore/restore-journal.ts';
import { StatusLine, lineWriter } from '../report/terminal/status-line.ts';
import { createProgress } from '../report/terminal/progress.ts';
import { colourEnabled, palette, type Palette } from '../report/terminal/colour.ts';
import { runJsonResult } from '../report/model/run-json-result.ts';
import { listRules } from './list-rules.ts';
import { attestationBeside } from '../report/files/bundle/attestation/attestation.ts';

/** The run's ways to speak: each line clears the status line first (lineWriter). */
interface RunOutput {
  /** A human line: stdout, or stderr under --json; nothing under --quiet unless `always`. */
  human(line: string, always?: boolean): void;
  /** An error or warning: stderr, always. */
  err(line: string): void;
  /** The status line of stderr, when it is a terminal and progress is wanted. */
  status?: StatusLine;
  /** Where the human lines go is a terminal. */
  humanTTY: boolean;
  /** The stream of the human lines, unconditionally (the console reporter decides what to print). */
  humanLine(line: string): void;
}

function runOutput(config: RunConfig, io: CliIO): RunOutput {
  const status = io.statusTerminal && !config.quiet ? new StatusLine(io.statusTerminal) : undefined;
  const out = lineWriter(status, io.out);
  const err = lineWriter(status, io.err);
  const humanLine = config.json ? err : out;
  return {
    human: (line, always = false) => {
      if (always || !config.quiet) humanLine(line);
    },
    err,
    ...(status ? { status } : {}),
    humanTTY: config.json ? io.statusTerminal !== undefined : io.isTTY,
    humanLine,
  };
}

export async function executeRun(config: RunConfig, io: CliIO): Promise<number> {
  // Sends nothing, starts nothing.
  if (config.listRules) return listRules(config, io);
  const output = runOutput(config, io);
  const interruption = io.interrupts?.((name) =>
    output.err(
      config.noRestore
        ? `conformance run: ${name}: stopping; requests in flight get ${INTERRUPT_GRACE_MS / 1000} s, then the reports are written (${name} again quits at once)`
        : `conformance run: ${name}: stopping; the fiat accounts are put back (each request given at least ${INTERRUPT_GRACE_MS / 1000} s, more on a slow target), then the reports are written (${name} again quits at once; ${path.join(config.reportDir, JOURNAL_FILE)} keeps what the accounts held: \`conformance restore\` puts it back)`,
    ),
  );
  const hooks = terminalHooks(config, io, output);
  try {
    const { exitCode, report, written, secrets } = await orchestrateRun(config, {
      reports: true,
      ...(io.env.GITHUB_STEP_SUMMARY ? { stepSummaryPath: io.env.GITHUB_STEP_SUMMARY } : {}),
      ...(interruption ? { signal: interruption.signal } : {}),
      hooks,
    });
    // A run that could not judge the target never reached the console's end: its verdict (error,
    // interrupted) is printed all the same, under --quiet too, and the closing counts unless quiet.
    if (!hooks.verdictShown()) {
      output.human(verdictLine(report, hooks.paint), true);
      output.human(closingLine(report.rules, hooks.paint));
    }
    if (io.env.GITHUB_ACTIONS === 'true') annotate(report, config, io, new Redactor(secrets()), output);
    // The one JSON value on stdout, after everything else: a script reads it whole.
    if (config.json) io.out(JSON.stringify(runJsonResult(report, exitCode, written), null, 2));
    return exitCode;
  } finally {
    output.status?.end();
    interruption?.dispose();
  }
}

/**
 * Under GitHub Actions, the findings as workflow commands on stderr (GitHub reads both streams;
 * stdout may hold --json's one value), pointing at summary.md relative to the workspace.
 */
function annotate(report: ConformanceReport, config: RunConfig, io: CliIO, redactor: Redactor, output: RunOutput): void {
  const summary = path.join(config.reportDir, REPORT_FILES.markdown);
  const file = path.relative(io.env.GITHUB_WORKSPACE ?? process.cwd(), path.resolve(summary)) || summary;
  for (const line of githubAnnotations(report, file)) output.err(redactor.text(line));
}

/** What the bundle proves, said where it is written: a partner should not learn it from `verify` alone. */
function bundleLine(bundle: BundleSettings): string {
  const signed = bundle.signKeyFile ? 'signed' : 'unsigned: integrity only, no proof of origin (--sign-key signs it)';
  const personal = bundle.redactPersonal ? 'personal values replaced by stand-ins' : 'personal values as sent (--redact-personal replaces them)';
  return `bundle: ${bundle.file}, ${signed}, ${personal}; check it with \`conformance verify ${bundle.file}\`; its in-toto attestation: ${attestationBeside(bundle.file)}`;
}

/** What the run prints as it goes: its opening lines, the progress, the rule table, the reports and what went wrong. */
function terminalHooks(config: RunConfig, io: CliIO, output: RunOutput): RunHooks & { verdictShown(): boolean; paint: Palette } {
  // Colour where the human lines go, decided once from the environment the CLI was given.
  const paint = palette(colourEnabled(io.env, output.humanTTY));
  let stopProgress: (() => void) | undefined;
  let verdictShown = false;
  return {
    verdictShown: () => verdictShown,
    paint,
    started: ({ target }) => {
      output.human(`target ${target.baseUrl}${target.embedded ? ' (embedded reference server)' : ''}`);
      // Short enough for 80 columns; the closing lines give the whole re-run command.
      output.human(`seed ${config.seed} (--seed to repeat), profile ${config.profile}, ${config.runs} random cases per rule`);
      // A quiet end of the run is the wait, not a hang.
      if (config.lifetimeMs)
        output.human(`--lifetime ${formatDuration(config.lifetimeMs)}: at its end the run waits until its first ref_ids are that old, then repeats them`);
    },
    // A remote target counts requests and time: say what the run will cost before it starts.
    connected: async ({ target, plan }, roundTripMs) => {
      if (!target.embedded) output.human(plannedRunLine(config, await plan.requests(), target.fiatAccountIds, roundTripMs));
      // What --max-requests left out, before anything is judged: the rules it leaves short say so again.
      if (plan.budget?.trimmed.length) output.human(budgetCutLine(plan.budget));
      // What this configuration cannot judge whatever the target does, and the smallest change that would.
      const ruledOut = await ruledOutRunLine(config, plan, target.fiatAccountIds.length);
      if (ruledOut) output.human(ruledOut);
      const filtered = ruleFilterLine(config, plan);
      if (filtered) output.human(filtered);
    },
    listeners: ({ plan, transport, secrets }) => {
      // What the run plans, for the progress: generated beside the run, shown once known.
      let planned: number | undefined;
      if (!config.quiet) {
        void plan
          .requests()
          .then((requests) => (planned = requests.total))
          .catch(() => undefined);
      }
      const progress = createProgress({
        ...(output.status ? { status: output.status } : config.quiet ? {} : { line: (text: string) => output.human(text) }),
        requestsSent: () => transport.requestCount,
        planned: () => planned,
      });
      stopProgress = () => progress.stop();
      // Progress first: its line is cleared before anything else prints at the end. Reports are
      // written before the console's closing table, so `N passed, N failed` (and after it the fiat
      // accounts left changed) stays last.
      const table = createConsoleReporter({
        out: output.humanLine,
        isTTY: output.status !== undefined,
        secrets,
        palette: paint,
        ...(config.quiet ? { quiet: true } : {}),
        ledgerFile: path.join(config.reportDir, CREATED_IDENTITIES_FILE),
      });
      const ended: ReportListener = (event) => {
        if (event.type === 'run-end') verdictShown = true;
        return table(event);
      };
      return { before: [progress.listener], after: [ended] };
    },
    finished: () => stopProgress?.(),
    aborted: (_error, reason) => output.err(`conformance run: ${reason}`),
    written: ({ written, errors }) => {
      for (const e of errors) output.err(`conformance run: the ${e.writer} report could not be written: ${e.message}`);
      if (written.length) output.human(`reports: ${written.join(', ')}`, true);
      if (config.bundle && written.includes(config.bundle.file)) output.human(bundleLine(config.bundle), true);
    },
    // That the target forgot an earlier run is said even under --quiet.
    noted: (line) => output.human(line, line.includes('forgot')),
    // A run whose reports could not all be written (a full disk) is no green gate, whatever it found.
    incomplete: () => output.err(`conformance run: exit ${EXIT.usage}: the run was conformant, but its reports are incomplete`),
  };
}

/**
 * junit.xml: one testsuite per operation, one testcase per rule (classname the operation, name
 * "<rule id> <title>"), so CI systems show the rules of the document as tests. It is valid against
 * the strict JUnit schema of the Jenkins xunit plugin (tests/report/xsd): no properties inside a
 * testcase (a rule's section, basis and cases are in its system-out), no skipped or timestamp on
 * <testsuites>.
 *
 * A failed convention rule outside --strict does not fail the run, but it is a defect all the
 * same: a <failure> whose type and message say it is a convention, fatal only with --strict, so
 * dashboards show it red (a grey <skipped> hid it). An inconclusive rule that blocks the verdict is
 * an <error type="inconclusive"> (the run exits 4, so CI should not be green); one that does not
 * block is <skipped>: it was not judged enough to pass or fail. Both carry the reason. A
 * failure's message ends with what the target said. A run the target stopped answering carries a
 * `stopped` property on every suite and says so in the suites' system-out; a run with too many
 * requests without an answer carries its `reason` the same way. A fiat account the run left
 * changed is a failing testcase of a `sandbox` suite (restore off: a skipped one). A run that could
 * not judge the target (unreachable, refused, misconfigured: exit 2 or 3) opens with a `run` suite
 * whose one testcase is an <error> saying why, so CI shows red rather than only skipped rules.
 */
import type { ConformanceReport, ReportFailure, ReportRule } from '../model/model.ts';
import { escapeXml, escapeXmlText } from './escape.ts';
import { oneLine } from '../../core/text.ts';
import { failureWords, targetSaidSuffix } from '../model/target-words.ts';
import { coverageFigures, reasonText, stoppedText } from '../model/rule-text.ts';
import { caseModeText } from '../model/case-text.ts';
import { reproduceSetup, setupText } from '../model/reproduce-setup.ts';
import { leftChangedHeadline, NO_JOURNAL, outcomeWords, reasonGroups, restoreOffLine, sandboxNotice } from '../model/left-changed.ts';

/** How many failures of one rule are spelled out in the element body. */
const FAILURES_SHOWN = 5;

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

function failureText(f: ReportFailure, ruleId: string): string {
  const lines = [f.message, `case: ${f.case.label} (${caseModeText(f.case)})`];
  if (f.instancePath) lines.push(`at: ${f.instancePath}`);
  if (f.response) lines.push(`response: ${f.response.status}`);
  const words = failureWords(f, ruleId);
  if (words) lines.push(`target said: ${words}`);
  if (f.error) lines.push(`no response: ${f.error.kind}: ${f.error.message}`);
  lines.push(`reproduce: ${f.curl}`);
  return lines.join('\n');
}

/** A failure that does not fail the run (a convention rule outside --strict): the report builder decided it. */
const advisory = (rule: ReportRule) => rule.status === 'failed' && !rule.blocking;
const ADVISORY = 'convention rule failed (fatal only with --strict)';
/** Judged by too few cases, and that keeps the verdict from conformant (exit 4): a JUnit error. */
const blockingInconclusive = (rule: ReportRule) => rule.status === 'inconclusive' && rule.blocking;
/** Judged by too few cases, but it does not block (a convention rule outside --strict): skipped. */
const advisoryInconclusive = (rule: ReportRule) => rule.status === 'inconclusive' && !rule.blocking;

function inconclusiveText(rule: ReportRule): string {
  const lines = [rule.reason ?? 'judged by fewer cases than the profile asks'];
  if (rule.coverage) lines.push(`coverage: ${coverageFigures(rule.coverage)}, ${rule.coverage.distinctInputs} distinct inputs`);
  else lines.push(`cases: ${rule.cases}`);
  return lines.join('\n');
}

/** A testcase's result element (none for a pass) and its output, the rule's facts first. */
/** `setup`: what the curl lines need first (reproduce-setup.ts), after the failures. */
function outcome(rule: ReportRule, setup?: string): { element?: string; output: string[] } {
  // The strict schema has no properties inside a testcase: a rule's facts are its first output line.
  const output = [`section ${rule.section}, ${rule.basis}, ${rule.cases} cases`];
  if (rule.status === 'passed') return { output };
  if (rule.status === 'skipped') return { element: `<skipped message="${escapeXml(rule.reason ?? 'skipped')}"/>`, output };
  if (rule.status === 'inconclusive' && rule.ruledOutBy && !rule.blocking) {
    // The configuration ruled it out: not run, and the fix is the message.
    const why = `not run: ruled out by ${rule.ruledOutBy.setting}: ${rule.ruledOutBy.fix}`;
    return { element: `<skipped message="${escapeXml(why)}"/>`, output: [...output, inconclusiveText(rule)] };
  }
  if (rule.status === 'inconclusive') {
    const reason = rule.reason ?? 'judged by fewer cases than the profile asks';
    if (blockingInconclusive(rule))
      return { element: `<error message="${escapeXml(reason)}" type="inconclusive">${escapeXmlText(inconclusiveText(rule))}</error>`, output };
    return {
      element: `<skipped message="${escapeXml(`inconclusive (does not block the verdict): ${reason}`)}"/>`,
      output: [...output, inconclusiveText(rule)],
    };
  }
  const first = rule.failures[0];
  const message = (first?.message ?? rule.reason ?? rule.status) + targetSaidSuffix(first, undefined, rule.id);
  const body = rule.failures.slice(0, FAILURES_SHOWN).map((f) => failureText(f, rule.id));
  if (rule.failures.length > FAILURES_SHOWN) body.push(`… and ${rule.failures.length - FAILURES_SHOWN} more failures in conformance.json`);
  if (!body.length && rule.reason) body.push(rule.reason);
  if (setup && rule.failures.length) body.push(setup);
  const tag = rule.status === 'error' ? 'error' : 'failure';
  const type = advisory(rule) ? `${rule.basis} §${rule.section}, fatal only with --strict` : `${rule.basis} §${rule.section}`;
  const shown = advisory(rule) ? `${ADVISORY}: ${message}` : message;
  return { element: `<${tag} message="${escapeXml(shown)}" type="${escapeXml(type)}">${escapeXmlText(body.join('\n\n'))}</${tag}>`, output };
}

function testcase(rule: ReportRule, time: number, setup?: string): string {
  const { element, output } = outcome(rule, setup);
  return [
    `    <testcase classname="${escapeXml(rule.operation)}" name="${escapeXml(`${rule.id} ${rule.title}`)}" time="${seconds(time)}">`,
    ...(element ? [`      ${element}`] : []),
    `      <system-out>${escapeXmlText(output.join('\n'))}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

function counts(rules: ReportRule[]) {
  return {
    tests: rules.length,
    failures: rules.filter((r) => r.status === 'failed').length,
    errors: rules.filter((r) => r.status === 'error' || blockingInconclusive(r)).length,
    skipped: rules.filter((r) => r.status === 'skipped' || advisoryInconclusive(r)).length,
  };
}

/** <testsuite> takes skipped; the strict schema's <testsuites> does not. */
const countAttributes = (c: ReturnType<typeof counts>, withSkipped = true): string =>
  `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}"${withSkipped ? ` skipped="${c.skipped}"` : ''}`;

/** The JUnit XML text of a report. Rules carry no own duration, so the run's time is shared by case count. */
export function renderJunit(report: ConformanceReport): string {
  const totalCases = report.rules.reduce((n, r) => n + r.cases, 0) || 1;
  const timeOf = (r: ReportRule) => (report.durationMs * r.cases) / totalCases;
  const operations = [...new Set(report.rules.map((r) => r.operation))];
  const stopped = stoppedText(report, 500);
  const reason = reasonText(report, 500);
  const reproduce = reproduceSetup(report);
  const setup = reproduce && setupText(reproduce);
  const suites = operations.map((operation) => {
    const rules = report.rules.filter((r) => r.operation === operation);
    const time = rules.reduce((t, r) => t + timeOf(r), 0);
    return [
      `  <testsuite name="${escapeXml(operation)}" ${countAttributes(counts(rules))} time="${seconds(time)}" timestamp="${escapeXml(report.startedAt)}">`,
      '    <properties>',
      `      <property name="seed" value="${report.seed}"/>`,
      `      <property name="profile" value="${escapeXml(report.profile)}"/>`,
      `      <property name="target" value="${escapeXml(report.target.baseUrl)}"/>`,
      `      <property name="tool" value="${escapeXml(`${report.tool.name} ${report.tool.version}`)}"/>`,
      `      <property name="schemasHash" value="${escapeXml(report.schemasHash)}"/>`,
      `      <property name="verdict" value="${escapeXml(report.summary.verdict)}"/>`,
      ...(stopped ? [`      <property name="stopped" value="${escapeXml(stopped)}"/>`] : []),
      ...(reason ? [`      <property name="reason" value="${escapeXml(reason)}"/>`] : []),
      '    </properties>',
      ...rules.map((r) => testcase(r, timeOf(r), setup)),
      ...(stopped || reason ? [`    <system-out>${escapeXmlText([stopped, reason].filter(Boolean).join('\n'))}</system-out>`] : []),
      '  </testsuite>',
    ].join('\n');
  });
  const sandbox = sandboxSuite(report);
  const run = runSuite(report);
  const total = counts(report.rules);
  for (const extra of [run, sandbox]) if (extra) for (const key of ['tests', 'failures', 'errors', 'skipped'] as const) total[key] += extra.counts[key];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`${report.tool.name} ${report.summary.verdict}`)}" ${countAttributes(total, false)} time="${seconds(report.durationMs)}">`,
    ...(run ? [run.xml] : []),
    ...suites,
    ...(sandbox ? [sandbox.xml] : []),
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Why the run could not judge the target, when it could not: unreachable, credentials or a scope
 * refused, a base URL that serves no API, unknown accounts (every rule skipped, summary.reason),
 * or a target or token endpoint that stopped answering mid-run (exit 3). Undefined otherwise: an
 * interrupt is the user's, --fail-fast and the budget leave the verdict to the rules.
 */
export function runErrorText(report: ConformanceReport): string | undefined {
  const stop = report.stopped;
  if (stop) return stop.kind === 'unreachable' || stop.kind === 'token-endpoint' ? stoppedText(report, 2000) : undefined;
  const couldNotJudge = report.summary.verdict === 'error' && report.rules.every((r) => r.status === 'skipped');
  return couldNotJudge ? (report.summary.reason ?? 'the run could not judge the target') : undefined;
}

/**
 * The `run` suite: one testcase in error when the run could not judge the target, so a CI widget
 * turns red on a skipped-only report instead of counting 56 grey tests. None otherwise.
 */
function runSuite(report: ConformanceReport): { xml: string; counts: ReturnType<typeof counts> } | undefined {
  const why = runErrorText(report);
  if (!why) return undefined;
  const c = { tests: 1, failures: 0, errors: 1, skipped: 0 };
  const xml = [
    `  <testsuite name="run" ${countAttributes(c)} time="${seconds(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    `    <testcase classname="run" name="run: the target was judged" time="${seconds(report.durationMs)}">`,
    `      <error message="${escapeXml(oneLine(why, 500))}" type="${escapeXml(report.stopped ? `stopped: ${report.stopped.kind}` : 'could not judge the target')}">${escapeXmlText(why)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
  return { xml, counts: c };
}

/**
 * The `sandbox` suite: a failing testcase per fiat account the run left changed (its fields not
 * restored with why, where the original values are, the repair command), so CI widgets go red
 * even on a conformant run; a skipped one when restore was off. None when every account is as found.
 */
function sandboxSuite(report: ConformanceReport): { xml: string; counts: ReturnType<typeof counts> } | undefined {
  const notice = sandboxNotice(report);
  if (!notice) return undefined;
  const cases =
    notice.kind === 'restore-off'
      ? [sandboxCase('sandbox: fiat accounts not restored (--no-restore)', `<skipped message="${escapeXml(restoreOffLine(notice))}"/>`)]
      : notice.accounts.map((a) => {
          const lines = [
            `${a.id}: ${outcomeWords(a)}`,
            ...(a.reason ? [a.reason] : []),
            ...reasonGroups(a).map((g) => `not restored: ${g.reason}: ${g.fields.join(', ')}`),
            notice.journal ? `original values: ${notice.journal}` : NO_JOURNAL,
            ...(notice.repair ? [`repair: ${notice.repair}`] : []),
          ];
          const fields = a.notRestored.map((n) => n.field);
          const message = `fiat account ${a.id} left changed: ${outcomeWords(a)}${fields.length ? ` (${fields.join(', ')})` : a.reason ? ` (${a.reason})` : ''}`;
          return sandboxCase(
            `sandbox: fiat account ${a.id} left changed`,
            `<failure message="${escapeXml(message)}" type="left-changed">${escapeXmlText(lines.join('\n'))}</failure>`,
          );
        });
  const c = {
    tests: cases.length,
    failures: notice.kind === 'left-changed' ? cases.length : 0,
    errors: 0,
    skipped: notice.kind === 'restore-off' ? cases.length : 0,
  };
  const note = notice.kind === 'left-changed' ? leftChangedHeadline(notice) : restoreOffLine(notice);
  const xml = [
    `  <testsuite name="sandbox" ${countAttributes(c)} time="0.000" timestamp="${escapeXml(report.startedAt)}">`,
    ...cases,
    `    <system-out>${escapeXmlText(note)}</system-out>`,
    '  </testsuite>',
  ].join('\n');
  return { xml, counts: c };
}

function sandboxCase(name: string, element: string): string {
  return [`    <testcase classname="sandbox" name="${escapeXml(name)}" time="0.000">`, `      ${element}`, '    </testcase>'].join('\n');
}

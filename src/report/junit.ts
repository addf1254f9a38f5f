/**
 * junit.xml: one testsuite per operation, one testcase per rule (classname the operation, name
 * "<rule id> <title>"), so CI systems show the rules of the document as tests. A failed
 * convention rule outside --strict does not fail the run, so it is not a JUnit failure either
 * (CI would turn red on a run that exits 0): it is a skipped case whose message says so.
 * An inconclusive rule that blocks the verdict is an <error type="inconclusive"> (the run exits
 * 4, so CI should not be green); one that does not block is <skipped>; both carry the reason. A
 * failure's message ends with what the target said. A run the target stopped answering carries a
 * `stopped` property on every suite and says so in the suites' system-out; a run with too many
 * requests without an answer carries its `reason` the same way.
 */
import type { ConformanceReport, ReportFailure, ReportRule } from './model.ts';
import { escapeXml, escapeXmlText } from './escape.ts';
import { targetSaidSuffix, targetWords } from './target-words.ts';
import { coverageFigures, reasonText, stoppedText } from './rule-text.ts';

/** How many failures of one rule are spelled out in the element body. */
const FAILURES_SHOWN = 5;

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

function failureText(f: ReportFailure): string {
  const lines = [f.message, `case: ${f.case.label} (${f.case.mode})`];
  if (f.instancePath) lines.push(`at: ${f.instancePath}`);
  if (f.response) lines.push(`response: ${f.response.status}`);
  const words = targetWords(f.response);
  if (words) lines.push(`target said: ${words}`);
  if (f.error) lines.push(`no response: ${f.error.kind}: ${f.error.message}`);
  lines.push(`reproduce: ${f.curl}`);
  return lines.join('\n');
}

/** A failure that does not fail the run (a convention rule outside --strict): the report builder decided it. */
const advisory = (rule: ReportRule) => rule.status === 'failed' && !rule.blocking;
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

function testcase(rule: ReportRule, time: number): string {
  const open = `    <testcase classname="${escapeXml(rule.operation)}" name="${escapeXml(`${rule.id} ${rule.title}`)}" time="${seconds(time)}"`;
  const props = `      <properties><property name="section" value="${escapeXml(rule.section)}"/><property name="basis" value="${escapeXml(rule.basis)}"/><property name="cases" value="${rule.cases}"/></properties>`;
  if (rule.status === 'passed') return `${open}>\n${props}\n    </testcase>`;
  if (rule.status === 'skipped') {
    return `${open}>\n${props}\n      <skipped message="${escapeXml(rule.reason ?? 'skipped')}"/>\n    </testcase>`;
  }
  if (rule.status === 'inconclusive') {
    const reason = rule.reason ?? 'judged by fewer cases than the profile asks';
    const element = blockingInconclusive(rule)
      ? `      <error message="${escapeXml(reason)}" type="inconclusive">${escapeXmlText(inconclusiveText(rule))}</error>`
      : `      <skipped message="${escapeXml(`inconclusive (does not block the verdict): ${reason}`)}"/>\n      <system-out>${escapeXmlText(inconclusiveText(rule))}</system-out>`;
    return `${open}>\n${props}\n${element}\n    </testcase>`;
  }
  const first = rule.failures[0];
  const message = (first?.message ?? rule.reason ?? rule.status) + targetSaidSuffix(first);
  const body = rule.failures.slice(0, FAILURES_SHOWN).map(failureText);
  if (rule.failures.length > FAILURES_SHOWN) body.push(`… and ${rule.failures.length - FAILURES_SHOWN} more failures in conformance.json`);
  if (!body.length && rule.reason) body.push(rule.reason);
  if (advisory(rule)) {
    return [
      `${open}>`,
      props,
      `      <skipped message="${escapeXml(`convention rule failed (fatal only with --strict): ${message}`)}"/>`,
      `      <system-out>${escapeXmlText(body.join('\n\n'))}</system-out>`,
      '    </testcase>',
    ].join('\n');
  }
  const tag = rule.status === 'error' ? 'error' : 'failure';
  return [
    `${open}>`,
    props,
    `      <${tag} message="${escapeXml(message)}" type="${escapeXml(`${rule.basis} §${rule.section}`)}">${escapeXmlText(body.join('\n\n'))}</${tag}>`,
    '    </testcase>',
  ].join('\n');
}

function counts(rules: ReportRule[]) {
  return {
    tests: rules.length,
    failures: rules.filter((r) => r.status === 'failed' && !advisory(r)).length,
    errors: rules.filter((r) => r.status === 'error' || blockingInconclusive(r)).length,
    skipped: rules.filter((r) => r.status === 'skipped' || advisory(r) || advisoryInconclusive(r)).length,
  };
}

const countAttributes = (c: ReturnType<typeof counts>): string =>
  `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

/** The JUnit XML text of a report. Rules carry no own duration, so the run's time is shared by case count. */
export function renderJunit(report: ConformanceReport): string {
  const totalCases = report.rules.reduce((n, r) => n + r.cases, 0) || 1;
  const timeOf = (r: ReportRule) => (report.durationMs * r.cases) / totalCases;
  const operations = [...new Set(report.rules.map((r) => r.operation))];
  const stopped = stoppedText(report, 500);
  const reason = reasonText(report, 500);
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
      ...rules.map((r) => testcase(r, timeOf(r))),
      ...(stopped || reason ? [`    <system-out>${escapeXmlText([stopped, reason].filter(Boolean).join('\n'))}</system-out>`] : []),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`${report.tool.name} ${report.summary.verdict}`)}" ${countAttributes(counts(report.rules))} time="${seconds(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The inline stylesheet and script of report.html. Kept apart from the markup so the script's
 * hash (pinned in the page's Content-Security-Policy) is computed from one constant.
 */

export const HTML_STYLE = `
:root {
  --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --skip: #8c959f; --skip-bg: #eff2f5; --warn: #9a6700; --warn-bg: #fff8c5;
  --unsure: #8250df; --unsure-bg: #fbefff;
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji"; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
main { max-width: 1120px; margin: 0 auto; padding: 8px 24px 48px; }
h1 { font-size: 28px; margin: 0; font-weight: 600; }
h2 { font-size: 20px; font-weight: 600; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--border); }
h3 { font-size: 16px; font-weight: 600; margin: 0; }
.banner { padding: 28px 24px; border-bottom: 1px solid var(--border); }
.banner .inner { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
.banner .kicker { text-transform: uppercase; letter-spacing: .06em; font-size: 12px; font-weight: 600; opacity: .85; }
.banner .lead { margin-top: 6px; font-size: 15px; }
.verdict-conformant { background: var(--pass-bg); color: #0f5323; border-left: 8px solid var(--pass); }
.verdict-non-conformant { background: var(--fail-bg); color: #82071e; border-left: 8px solid var(--fail); }
.verdict-error { background: var(--warn-bg); color: #633c01; border-left: 8px solid var(--warn); }
.verdict-inconclusive { background: var(--unsure-bg); color: #512a97; border-left: 8px solid var(--unsure); }
.sandbox { padding: 16px 24px; border-bottom: 1px solid var(--border); }
.sandbox .inner { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
.sandbox h2 { margin: 0 0 8px; padding: 0; border: 0; font-size: 18px; }
.sandbox ul { margin: 4px 0; padding-left: 20px; }
.sandbox p { margin: 8px 0 0; }
.left-changed { background: var(--fail-bg); color: #82071e; border-left: 8px solid var(--fail); }
.restore-off { background: var(--warn-bg); color: #633c01; border-left: 8px solid var(--warn); }
.banner .stopped { margin: 10px 0 0; padding: 8px 12px; border-radius: 6px; background: var(--bg); border: 1px solid var(--warn); color: #633c01; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px 24px; margin: 0; }
.facts div { border-left: 3px solid var(--border); padding-left: 10px; min-width: 0; }
.facts dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.counts { display: flex; gap: 12px; flex-wrap: wrap; margin: 18px 0 0; }
.count { padding: 8px 14px; border-radius: 8px; background: var(--panel); border: 1px solid var(--border); }
.count strong { font-size: 20px; margin-right: 6px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.s-passed { background: var(--pass-bg); color: var(--pass); }
.s-failed { background: var(--fail-bg); color: var(--fail); }
.s-error { background: var(--warn-bg); color: var(--warn); }
.s-skipped { background: var(--skip-bg); color: var(--muted); }
.s-inconclusive { background: var(--unsure-bg); color: var(--unsure); }
.basis { color: var(--muted); font-size: 12px; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--border); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; background: var(--panel); }
tbody tr:hover { background: #fafbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.coverage .row { display: grid; grid-template-columns: 260px 1fr 300px; align-items: center; gap: 14px; padding: 2px 0; }
.coverage .label { font-weight: 600; font-size: 13px; overflow-wrap: anywhere; }
.answers .answers-row { display: grid; grid-template-columns: 160px 1fr 360px; align-items: center; gap: 4px 14px; padding: 4px 0; }
.answers svg { width: 100%; height: 14px; display: block; border-radius: 4px; background: var(--skip-bg); }
.answers .nums { color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
.answer-2xx { fill: var(--pass); background: var(--pass); } .answer-3xx { fill: var(--muted); background: var(--muted); }
.answer-4xx { fill: var(--warn, #b7791f); background: var(--warn, #b7791f); } .answer-5xx { fill: var(--fail); background: var(--fail); }
.answer-none { fill: var(--border); background: var(--border); }
.latency-max { fill: var(--border); } .latency-p95 { fill: var(--muted); } .latency-median { fill: var(--accent, #2b6cb0); }
.coverage svg { width: 100%; height: 14px; display: block; border-radius: 4px; background: var(--skip-bg); }
.coverage .nums { color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
.legend { display: flex; gap: 16px; color: var(--muted); font-size: 13px; margin-bottom: 8px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: baseline; }
.bar-passed { fill: var(--pass); } .bar-failed { fill: var(--fail); } .bar-error { fill: var(--warn); } .bar-skipped { fill: var(--skip); } .bar-inconclusive { fill: var(--unsure); }
i.bar-passed { background: var(--pass); } i.bar-failed { background: var(--fail); } i.bar-error { background: var(--warn); } i.bar-skipped { background: var(--skip); } i.bar-inconclusive { background: var(--unsure); }
.failure-rule { border: 1px solid var(--border); border-radius: 10px; margin: 16px 0; overflow: hidden; }
.failure-rule > header { padding: 12px 16px; background: var(--panel); border-bottom: 1px solid var(--border); display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.failure { padding: 14px 16px; border-top: 1px solid var(--border); }
.failure:first-of-type { border-top: 0; }
.message { font-weight: 600; color: #82071e; margin: 0 0 6px; overflow-wrap: anywhere; }
.case { color: var(--muted); font-size: 13px; margin-bottom: 10px; }
.said { margin: 0 0 6px; overflow-wrap: anywhere; }
.said q { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
.reason { margin: 0 0 4px; overflow-wrap: anywhere; }
.figures { font-size: 12px; font-variant-numeric: tabular-nums; margin: 0; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 820px) { .exchange { grid-template-columns: 1fr; } .coverage .row { grid-template-columns: 140px 1fr; } .coverage .nums { grid-column: 2; } }
.pane { min-width: 0; }
.pane h4 { margin: 0 0 4px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
pre { margin: 0; padding: 10px 12px; background: var(--panel); border: 1px solid var(--border); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; unicode-bidi: isolate; }
.curl { display: flex; gap: 8px; align-items: flex-start; margin-top: 10px; }
.curl pre { flex: 1; }
button.copy { font: inherit; font-size: 13px; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--border);
  background: var(--bg); color: var(--fg); cursor: pointer; white-space: nowrap; }
button.copy:hover { background: var(--panel); }
button.copy.done { border-color: var(--pass); color: var(--pass); }
.muted { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.bidi { unicode-bidi: isolate; overflow-wrap: anywhere; }
table.contract td:first-child { overflow-wrap: normal; word-break: normal; }
table.contract td:nth-child(2) { white-space: nowrap; }
table.contract td .muted { font-size: 12px; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
nav.contents { margin: 16px 0 0; padding: 10px 14px; border: 1px solid var(--border); border-radius: 8px; background: var(--panel); }
nav.contents ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 4px 22px; }
nav.contents a { color: var(--fg); font-weight: 600; }
h2[id] { scroll-margin-top: 12px; }
details > summary { cursor: pointer; }
details.failure-rule > summary { padding: 6px 14px; background: var(--panel); display: flex; gap: 10px; align-items: baseline; list-style: none; white-space: nowrap; }
details.failure-rule > summary::-webkit-details-marker { display: none; }
details.failure-rule > summary::before { content: "▸"; color: var(--muted); }
details.failure-rule[open] > summary::before { content: "▾"; }
details.failure-rule[open] > summary { border-bottom: 1px solid var(--border); }
.rule-id { font-size: 14px; }
.first-message { flex: 1; min-width: 0; color: #82071e; font-size: 13px; overflow: hidden; text-overflow: ellipsis; }
details.failure-rule[open] .first-message { visibility: hidden; }
.rule-title { margin: 0; padding: 10px 16px 0; font-weight: 600; }
.kind-group { margin: 0; padding: 12px 16px 0; font-size: 0.85rem; font-weight: 600; color: var(--muted); }
details.failure-rule { margin: 6px 0; }
table.rules { table-layout: fixed; }
table.rules th:nth-child(1) { width: 235px; } table.rules th:nth-child(3) { width: 135px; }
table.rules th:nth-child(4) { width: 105px; } table.rules th:nth-child(5) { width: 300px; }
table.rules td { overflow-wrap: anywhere; }
table.rules td.num { white-space: nowrap; }
table.rules td.num .figures { display: inline; margin-left: 6px; font-size: 12px; }
table.rules td, table.rules th { padding: 5px 8px; font-size: 13px; }
ul.group-rules .figures { display: inline; margin-left: 6px; }
details.evidence > summary { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 13px; padding: 4px 0; }
details.evidence > summary .what { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
details.more-cases { margin-top: 10px; font-size: 13px; }
details.more-cases ul { margin: 6px 0 0; padding-left: 20px; }
.case-count { margin: 0 0 4px; font-size: 13px; }
tr.reason-group td { background: var(--panel); color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
details.collapsed-rules { margin-top: 10px; }
details.collapsed-rules > summary { padding: 6px 0; font-weight: 600; overflow-wrap: anywhere; }
details.long-table { margin-top: 6px; }
details.long-table > summary { padding: 6px 0; font-weight: 600; cursor: pointer; }
ul.group-rules { list-style: none; margin: 0; padding: 0; }
ul.group-rules li { padding: 8px 16px; border-top: 1px solid var(--border); }
ul.group-rules li:first-child { border-top: 0; }
.own { margin: 2px 0 0; font-size: 12px; }
`;

export const HTML_SCRIPT = `
(function () {
  'use strict';
  function label(button, text) {
    button.textContent = text;
    button.classList.add('done');
    setTimeout(function () { button.textContent = 'Copy'; button.classList.remove('done'); }, 2500);
  }
  function selectAndCopy(button, source) {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (e) { copied = false; }
    label(button, copied ? 'Copied' : 'Selected: press Ctrl+C');
  }
  document.addEventListener('click', function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('button[data-copy]') : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    var text = source.textContent || '';
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { label(button, 'Copied'); }, function () { selectAndCopy(button, source); });
    } else {
      selectAndCopy(button, source);
    }
  });
})();
`;

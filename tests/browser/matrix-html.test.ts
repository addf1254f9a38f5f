/**
 * Opens the HTML matrix of three real runs (the embedded server, its strict variant, a fault) in
 * Debian's chromium (playwright-core, no browser download): the rules table and the differing
 * limits are visible, a hostile column name renders as text, nothing is fetched, no page error,
 * and a screenshot lands in reports/ for a human look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildMatrix } from '../../src/report/compare/matrix.ts';
import { renderMatrixHtml } from '../../src/report/compare/matrix-html.ts';
import { HOSTILE } from '../report/sample-report.ts';
import { available, MISSING, openOffline, REPORTS, runHere } from './offline-chromium.ts';
import { FAULT_RULE, MATRIX_NAMES, type MatrixRuns, matrixRuns } from '../report/matrix-runs.ts';

const PAGE = path.join(REPORTS, 'browser-test-matrix', 'matrix.html');
const SCREENSHOT = path.join(REPORTS, 'matrix-html.png');
/** The faulty column's name carries a script: it must show as text. */
const FAULTY = `faulty ${HOSTILE.script}`;

let browser: Browser | undefined;
let page: Page;
let runs: MatrixRuns;
let pageErrors: string[] = [];
let consoleErrors: string[] = [];
let requested: string[] = [];

describe.runIf(runHere)('the matrix HTML page in chromium', () => {
  beforeAll(async () => {
    if (!available) return;
    runs = await matrixRuns();
    const names = [MATRIX_NAMES[0], MATRIX_NAMES[1], FAULTY];
    const matrix = buildMatrix(MATRIX_NAMES.map((name, i) => ({ report: runs[name], file: `${name}/conformance.json`, name: names[i] })));
    await mkdir(path.dirname(PAGE), { recursive: true });
    await writeFile(PAGE, renderMatrixHtml(matrix));
    ({ browser, page, pageErrors, consoleErrors, requested } = await openOffline(PAGE));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the headline and the rules table, the fault failing in its column only, in its words', async () => {
    expect(available, MISSING).toBe(true);
    expect(await page.locator('#verdict h1').innerText()).toBe('1 of 3 targets not conformant');
    expect(await page.locator('table.matrix').first().isVisible()).toBe(true);
    const row = page.locator(`table.matrix tr[data-rule="${FAULT_RULE}"]`);
    expect(await row.isVisible()).toBe(true);
    expect(await row.getAttribute('data-differs')).toBe('true');
    expect(await row.locator('td.cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-status')))).toEqual(['passed', 'passed', 'failed']);
    expect(await row.locator('td.cell[data-status="failed"] .msg').innerText()).toMatch(
      /a valid request was not accepted \(HTTP 400\) — target said: ".*last_name/,
    );
    // The rows that differ come first: the fault's rule is among the first rows on screen.
    const firstRules = await page.locator('table.matrix tbody tr[data-rule]').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute('data-rule')));
    expect(firstRules).toContain(FAULT_RULE);
    expect(await page.locator('table.matrix tr.verdict').innerText()).toMatch(/conformant\s+conformant\s+non-conformant/);
    // The rules every target passed are collapsed under one line: present, not on screen until opened.
    const passed = page.locator('details.passed-everywhere');
    expect(await passed.locator('summary').innerText()).toMatch(/^\d+ rules passed on every target$/);
    expect(await passed.locator('tr[data-rule="id.valid-accepted"]').isVisible()).toBe(false);
    await passed.locator('summary').click();
    expect(await passed.locator('tr[data-rule="id.valid-accepted"]').isVisible()).toBe(true);
  });

  it("shows the strict server's name and address length limits beside the embedded server's, and what a client would break", async () => {
    expect(available, MISSING).toBe(true);
    for (const field of ['person_details.first_name', 'person_details.address.address1']) {
      const limit = (r: typeof runs.strict) =>
        r.observedContract!.limits.find((l) => l.operation === 'createIdentity' && l.field === field && l.kind === 'length')!;
      const row = page.locator(`table.contract-matrix tr[data-point="createIdentity ${field} length"]`);
      expect(await row.isVisible()).toBe(true);
      expect(await row.getAttribute('data-differs')).toBe('true');
      expect(await row.locator('td[data-target="embedded"]').innerText()).toBe(limit(runs.embedded).summary);
      expect(await row.locator('td[data-target="strict"]').innerText()).toContain(limit(runs.strict).summary);
      const breaks = page.locator('ul.breaks li[data-refused-by="strict"]', { hasText: ` ${field} (createIdentity, length)` });
      expect(await breaks.count()).toBe(1);
      expect(await breaks.innerText()).toMatch(/^a client written against embedded or faulty .* may send/);
    }
  });

  it('renders a hostile column name as text, fetches nothing, raises no error, and saves a screenshot', async () => {
    expect(available, MISSING).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('table.targets tr').nth(3).innerText()).toContain(FAULTY);
    expect(await page.locator('script, img, iframe').count()).toBe(0);
    expect(requested.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});

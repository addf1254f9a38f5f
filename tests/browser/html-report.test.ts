/**
 * Opens report.html of a failing run in Debian's chromium (playwright-core, no browser download):
 * the banner and failures are visible, hostile payloads render as text, the copy button works,
 * nothing is fetched, and a screenshot lands in reports/ for a human look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeReports } from '../../src/report/files/write-reports.ts';
import {
  ALPHABET_WORDS,
  HOSTILE,
  REFUSAL_WORDS,
  SAMPLE_CONTRACT,
  SHORTFALL,
  sampleExchanges,
  sampleReport,
  stoppedReport,
  inconclusiveReport,
} from '../report/sample-report.ts';
import { RULES } from '../../src/core/catalogue.ts';
import { runEmbedded } from '../../src/run/embedded-run.ts';
import { collectExchanges } from '../engine/collect-exchanges.ts';
import { available, MISSING, openOffline, REPORTS, runHere, CHROMIUM } from './offline-chromium.ts';

const OUT_DIR = path.join(REPORTS, 'browser-test');
export const SCREENSHOT = path.join(REPORTS, 'html-report.png');

let browser: Browser | undefined;
let page: Page;
let pageErrors: string[] = [];
let consoleErrors: string[] = [];
let requested: string[] = [];

describe.runIf(runHere)('report.html in chromium', () => {
  beforeAll(async () => {
    if (!available) return;
    await mkdir(OUT_DIR, { recursive: true });
    const { errors } = await writeReports(OUT_DIR, sampleReport(), sampleExchanges(), { secrets: [] });
    if (errors.length) throw new Error(`writeReports failed: ${JSON.stringify(errors)}`);
    ({ browser, page, pageErrors, consoleErrors, requested } = await openOffline(path.join(OUT_DIR, 'report.html')));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(`finds Debian's chromium at ${CHROMIUM}`, () => {
    expect(available, MISSING).toBe(true);
  });

  it('shows the non-conformant verdict banner and the counts', async () => {
    expect(available, MISSING).toBe(true);
    const banner = page.locator('#verdict');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.getAttribute('data-verdict')).toBe('non-conformant');
    expect(await banner.locator('h1').innerText()).toBe('Non-conformant');
    expect(await banner.innerText()).toContain(`${RULES.length - 4} passed, 3 failed, 1 skipped`);
  });

  it('shows every failure with its request and response, and a coverage bar per section', async () => {
    expect(available, MISSING).toBe(true);
    const failures = page.locator('[data-failure]');
    expect(await failures.count()).toBe(3);
    for (let i = 0; i < 3; i++) expect(await failures.nth(i).isVisible()).toBe(true);
    const first = page.locator('details.failure-rule[data-rule="fa.metadata.over-pairs-rejected"]');
    expect(await first.locator('.message').innerText()).toBe('7 pairs accepted (200)');
    expect(await first.innerText()).toContain('PUT http://127.0.0.1:4010/v2/transfer/fiat-accounts/');
    expect(await first.innerText()).toContain('HTTP 200');
    const timeout = page.locator('details.failure-rule[data-rule="id.answers"]');
    expect(await timeout.innerText()).toContain('no response: timeout');
    const sections = new Set(sampleReport().rules.map((r) => r.section));
    expect(await page.locator('.coverage .row').count()).toBe(sections.size);
    expect(await page.locator('.coverage .row[data-section="8"] rect.bar-failed').count()).toBe(1);
  });

  it('renders hostile payloads as text: no script from the data runs', async () => {
    expect(available, MISSING).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // Long evidence is collapsed: what the data says is text whether shown or not.
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain(HOSTILE.script);
    expect(text).toContain(HOSTILE.emoji);
    expect(text).toContain(HOSTILE.combining);
    expect(await page.locator('main script, main img, main iframe').count()).toBe(0);
  });

  it('shows the observed contract as a compact table: a row per refused open point, the target words as text', async () => {
    expect(available, MISSING).toBe(true);
    const heading = page.locator('#observed-contract');
    expect(await heading.innerText()).toBe('Observed contract (open points)');
    const rows = page.locator('table.contract tbody tr');
    expect(await rows.count()).toBe(SAMPLE_CONTRACT.limits.filter((l) => l.refused.length).length);
    const alphabet = page.locator('tr[data-limit="createIdentity person_details.first_name alphabet"]');
    expect(await alphabet.isVisible()).toBe(true);
    expect(await alphabet.innerText()).toContain('refused cjk, astral; accepted accented latin (é, ñ, ß)');
    expect(await alphabet.locator('.said').innerText()).toBe(`400: ${ALPHABET_WORDS}`);
    const country = page.locator('tr[data-limit="createIdentity person_details.address.country code"] .said');
    expect(await country.innerText()).toBe(`400: country must be one of GBR | DEU | FRA ${HOSTILE.script}`);
    // Compact: the table is no taller than a few rows of text.
    const box = await page.locator('table.contract').boundingBox();
    expect(box?.height).toBeLessThan(400);
  });

  it('copies a curl line with the copy button, without a page error', async () => {
    expect(available, MISSING).toBe(true);
    const button = page.locator('button[data-copy]').first();
    await button.click();
    await page.waitForFunction(() => /^(Copied|Selected)/.test(document.querySelector('button[data-copy]')?.textContent ?? ''), undefined, { timeout: 5_000 });
    expect(pageErrors).toEqual([]);
    // A CSP violation (the script's hash drifting from the page) shows up as a console error.
    expect(consoleErrors).toEqual([]);
  });

  it('loads nothing but the file itself, and saves a screenshot', async () => {
    expect(available, MISSING).toBe(true);
    expect(requested.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});

/** The pages of an inconclusive run and of a run the target stopped answering (report 1.3.0). */
describe.runIf(runHere)('report.html of inconclusive and stopped runs in chromium', () => {
  let v13Browser: Browser | undefined;
  let inconclusivePage: Page;
  let stoppedPage: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!available) return;
    v13Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await v13Browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
    const open = async (name: string, report: ReturnType<typeof sampleReport>): Promise<Page> => {
      const dir = path.join(REPORTS, `browser-test-${name}`);
      const { errors: writeErrors } = await writeReports(dir, report, sampleExchanges(), { secrets: [] });
      if (writeErrors.length) throw new Error(`writeReports failed: ${JSON.stringify(writeErrors)}`);
      const p = await context.newPage();
      p.on('pageerror', (error) => errors.push(error.message));
      p.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await p.goto(pathToFileURL(path.join(dir, 'report.html')).href);
      return p;
    };
    inconclusivePage = await open('inconclusive', inconclusiveReport());
    stoppedPage = await open('stopped', stoppedReport());
  });
  afterAll(async () => {
    await v13Browser?.close();
  });

  it('an inconclusive run: its banner, the inconclusive chip, the reason and the figures are visible', async () => {
    expect(available, MISSING).toBe(true);
    const banner = inconclusivePage.locator('#verdict');
    expect(await banner.getAttribute('data-verdict')).toBe('inconclusive');
    expect(await banner.locator('h1').innerText()).toBe('Inconclusive: a rule was not judged by enough cases');
    expect(await banner.innerText()).toContain(`${RULES.length - 2} passed, 0 failed, 2 inconclusive`);
    const rule = inconclusivePage.locator('article[data-inconclusive="id.dob.midnight-utc"]');
    expect(await rule.isVisible()).toBe(true);
    expect(await rule.locator('.badge').innerText()).toMatch(/inconclusive/i);
    expect(await rule.locator('.reason').innerText()).toBe(SHORTFALL);
    expect(await rule.locator('.figures').innerText()).toContain('3 fixed + 0 random cases, minimum 2 + 25');
    // The chip has a colour of its own, not the unstyled default.
    const chip = await rule.locator('.badge').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(chip).not.toBe('rgba(0, 0, 0, 0)');
    expect(errors).toEqual([]);
    await inconclusivePage.screenshot({ path: path.join(REPORTS, 'html-report-inconclusive.png'), fullPage: true });
  });

  it('a stopped run: the banner says where it stopped and the exit; the failure quotes the target', async () => {
    expect(available, MISSING).toBe(true);
    const stopped = stoppedPage.locator('#verdict #stopped');
    expect(await stopped.isVisible()).toBe(true);
    expect(await stopped.innerText()).toContain('stopped after 212 requests while judging id.dob.midnight-utc');
    expect(await stopped.innerText()).toContain('exit 3');
    const failure = stoppedPage.locator('details.failure-rule[data-rule="id.valid-accepted"] .said');
    expect(await failure.innerText()).toContain(REFUSAL_WORDS);
    expect(errors).toEqual([]);
  });
});

/** The same page for a real run: the harness against the embedded server with a fault. */
describe.runIf(runHere)('report.html of a real failing run in chromium', () => {
  const FAULT = 'metadata-counts-bytes';
  const RULE = 'fa.metadata.max-length-accepted';
  const dir = path.join(REPORTS, 'browser-test-real-run');
  let realBrowser: Browser | undefined;
  let realPage: Page;

  beforeAll(async () => {
    if (!available) return;
    const { exchanges, listener } = collectExchanges();
    const { report } = await runEmbedded({ fault: FAULT, runs: 3, seed: 5, ruleFilter: ['fa.metadata'], listeners: [listener] });
    const { errors } = await writeReports(dir, report, exchanges, { secrets: [] });
    if (errors.length) throw new Error(`writeReports failed: ${JSON.stringify(errors)}`);
    realBrowser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    realPage = await (await realBrowser.newContext({ offline: true, viewport: { width: 1280, height: 900 } })).newPage();
    await realPage.goto(pathToFileURL(path.join(dir, 'report.html')).href);
  });
  afterAll(async () => {
    await realBrowser?.close();
  });

  it('shows the verdict and the failing rule with the request that shows the fault', async () => {
    expect(available, MISSING).toBe(true);
    expect(await realPage.locator('#verdict').getAttribute('data-verdict')).toBe('non-conformant');
    const failure = realPage.locator(`details.failure-rule[data-rule="${RULE}"]`);
    expect(await failure.isVisible()).toBe(true);
    const text = await failure.innerText();
    expect(text).toContain('PUT http://127.0.0.1:');
    expect(text).toMatch(/curl -sS -X PUT/);
    await realPage.screenshot({ path: path.join(REPORTS, 'html-report-real-run.png'), fullPage: true });
  });
});

/**
 * Debian's chromium through playwright-core (no browser download), offline: what the browser tests
 * share. A page opened here records its page errors, its console errors and every URL it asked for.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const MISSING = `${CHROMIUM} is missing: install it with .ci/install-chromium (apt-get install -y chromium)`;
export const available = existsSync(CHROMIUM);
/** In CI a missing browser is a failure, not a skip; on a workstation the test may skip. */
export const runHere = available || Boolean(process.env.CI);
/**
 * Where the pages and screenshots of the browser tests go, for a human look: outside the tree (npm
 * test leaves it as it found it), and fresh for each test file: a folder kept from an earlier run
 * holds that run's restore journal, which the next run in it refuses to overwrite (the lead's
 * measuring run failed html-report-length.test.ts so, with reports/ of an earlier run).
 */
export const REPORTS = mkdtempSync(path.join(tmpdir(), 'conformance-browser-tests-'));

export interface OfflinePage {
  browser: Browser;
  page: Page;
  pageErrors: string[];
  consoleErrors: string[];
  requested: string[];
}

/** Launches chromium and opens `file` at 1280x900 with the network off, recording what the page does. */
export async function openOffline(file: string): Promise<OfflinePage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // Offline: the page must not need the network for anything.
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const opened: OfflinePage = { browser, page, pageErrors: [], consoleErrors: [], requested: [] };
  page.on('pageerror', (error) => opened.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') opened.consoleErrors.push(message.text());
  });
  page.on('request', (request) => opened.requested.push(request.url()));
  await page.goto(pathToFileURL(file).href);
  return opened;
}

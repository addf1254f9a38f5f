/**
 * report.html of a run that fails many rules stays a few screens long (it was 55,000 pixels tall
 * before its failures were grouped and collapsed): the harness against the embedded server with
 * twenty faults at once, the page opened in Debian's chromium at 1280x800. The table of contents
 * leads to its sections, and a collapsed piece of evidence opens, with the script and without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPORTS } from './offline-chromium.ts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createReferenceServer, type ReferenceServer } from '../../src/server/server.ts';
import type { FaultName } from '../../src/server/faults.ts';
import { runConformance } from '../../src/api/index.ts';
import type { ConformanceReport } from '../../src/report/model/model.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const runHere = available || Boolean(process.env.CI);

const DIR = path.join(REPORTS, 'browser-test-many-faults');

/** Faults that change distinct parts of the server's behaviour, so that each one still fails its rule beside the others. */
const FAULTS: FaultName[] = [
  'metadata-over-pairs-accepted',
  'metadata-counts-bytes',
  'fa-status-lowercase',
  'fa-content-type-text',
  'id-tax-absent-accepted',
  'id-ref-id-not-unique',
  'id-dob-unchanged',
  'id-astral-name-500',
  'fa-unknown-id-400',
  'fa-update-not-applied',
  'fa-malformed-json-500',
  'fa-no-auth-accepted',
  'id-wrong-token-403',
  'id-duplicate-bad-timestamp',
  'id-empty-bearer-accepted',
  'fa-owner-names-not-persisted',
  'fa-owner-names-every-account',
  'fa-other-method-500',
  'fa-empty-body-500',
  'fa-auth-no-challenge',
];

const VIEWPORT = { width: 1280, height: 800 };
/** The page may be at most this many screens tall. */
const SCREENS = 6;

describe.runIf(runHere)('report.html of a run that fails many rules, in chromium', () => {
  let server: ReferenceServer | undefined;
  let browser: Browser | undefined;
  let report: ConformanceReport;
  const pages: { script: Page; noScript: Page } = {} as never;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!available) return;
    server = await createReferenceServer({ fault: FAULTS[0], moreFaults: FAULTS.slice(1) });
    ({ report } = await runConformance({
      baseUrl: server.baseUrl,
      token: server.staticToken,
      fiatAccountIds: server.fiatAccountIds,
      seed: 1,
      profile: 'quick',
      reportDir: DIR,
    }));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const open = async (javaScriptEnabled: boolean): Promise<Page> => {
      const page = await (await browser!.newContext({ offline: true, viewport: VIEWPORT, javaScriptEnabled })).newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(path.join(DIR, 'report.html')).href);
      return page;
    };
    pages.script = await open(true);
    pages.noScript = await open(false);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the run fails many rules, each with its evidence in the report', () => {
    expect(available).toBe(true);
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(15);
    expect(failed.reduce((n, r) => n + r.failures.length, 0)).toBeGreaterThanOrEqual(50);
  });

  it(`is at most ${SCREENS} screens tall at ${VIEWPORT.width}x${VIEWPORT.height}, and no wider than the screen`, async () => {
    expect(available).toBe(true);
    const { height, width } = await pages.script.evaluate(() => ({ height: document.body.scrollHeight, width: document.documentElement.scrollWidth }));
    console.info(`report.html of ${FAULTS.length} faults: ${height} px tall (${(height / VIEWPORT.height).toFixed(1)} screens)`);
    expect(height).toBeLessThanOrEqual(SCREENS * VIEWPORT.height);
    expect(width).toBeLessThanOrEqual(VIEWPORT.width);
    // Every failing rule is there, one line each until opened.
    expect(await pages.script.locator('details.failure-rule').count()).toBe(report.rules.filter((r) => r.status === 'failed').length);
  });

  it('every link of the table of contents leads to an element of the page, and following one scrolls to it', async () => {
    expect(available).toBe(true);
    const page = pages.script;
    const targets = await page.locator('nav#contents a').evaluateAll((links) =>
      links.map((a) => {
        const id = (a.getAttribute('href') ?? '').replace(/^#/, '');
        return { id, found: document.getElementById(id) !== null };
      }),
    );
    expect(targets.map((t) => t.id)).toEqual(expect.arrayContaining(['verdict', 'failures', 'inconclusive', 'rules', 'observed-contract', 'run']));
    expect(targets.filter((t) => !t.found)).toEqual([]);
    await page.locator('nav#contents a[href="#rules"]').click();
    expect(await page.evaluate(() => location.hash)).toBe('#rules');
    const top = await page.locator('#rules').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(VIEWPORT.height / 2);
  });

  for (const mode of ['script', 'noScript'] as const) {
    it(`opening a failing rule, then its collapsed evidence, shows the evidence (${mode === 'script' ? 'with' : 'without'} JavaScript)`, async () => {
      expect(available).toBe(true);
      const page = pages[mode];
      const rule = page.locator('details.failure-rule:has(details.evidence)').first();
      expect(await rule.getAttribute('open')).toBeNull();
      const evidence = rule.locator('details.evidence').first();
      const body = evidence.locator('pre');
      expect(await body.isVisible()).toBe(false);
      await rule.locator(':scope > summary').click();
      expect(await rule.getAttribute('open')).not.toBeNull();
      expect(await evidence.locator('summary').isVisible()).toBe(true);
      expect(await body.isVisible()).toBe(false);
      await evidence.locator('summary').click();
      expect(await body.isVisible()).toBe(true);
      expect(await body.innerText()).toMatch(/^(PUT|POST|PATCH|GET|HTTP \d{3}|curl )/);
    });
  }

  it('runs without a page error', () => {
    expect(available).toBe(true);
    expect(errors).toEqual([]);
  });
});

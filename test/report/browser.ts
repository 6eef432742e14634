// Open the HTML reports in Debian's headless Chromium (scripts/chromium.mjs) and record what they do.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium } from '../../scripts/chromium.mjs';

export { haveChromium };

/** Where tests keep screenshots for CI to collect: the temp folder, kept after the run. */
export const ARTIFACTS = join(tmpdir(), 'toolbox-artifacts');

export const launch = (): Promise<Browser> => launchChromium() as Promise<Browser>;

/** A page opened from disk, with every console error, page error and request it made recorded. */
export async function openReport(
  browser: Browser,
  file: string,
  opts: { colorScheme?: 'light' | 'dark'; width?: number } = {},
): Promise<{ page: Page; errors: string[]; requests: string[]; url: string }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1200, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  // Every request the page starts is recorded; any that could reach a network is refused as well.
  const url = pathToFileURL(file).href;
  page.on('request', (r) => requests.push(r.url()));
  await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { timeout: 20_000 });
  if ((await page.getAttribute('html', 'data-ready')) !== '1')
    throw new Error(`the report failed to render:\n${errors.join('\n')}`);
  return { page, errors, requests, url };
}

/** Save a full-page screenshot among the artefacts; returns its path. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

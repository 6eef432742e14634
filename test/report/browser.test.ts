import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { cli } from '../helpers.js';
import { haveChromium, keepScreenshot, launch, openReport } from './browser.js';
import { HOSTILE_DESCRIPTION, reportProject } from './fixture.js';

// CI installs chromium (.ci/run); elsewhere a machine without it skips these, saying so.
const CI = Boolean(process.env.CI);
const EVAL = ['eval', 'cases.jsonl', '--no-examples'];
if (!haveChromium && !CI) console.warn('report browser tests skipped: no /usr/bin/chromium');

describe.skipIf(!haveChromium && !CI)('the HTML reports in headless Chromium', () => {
  let browser: Browser;
  let fx: ReturnType<typeof reportProject>;
  beforeAll(async () => {
    browser = await launch();
    fx = reportProject();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    fx?.cleanup();
  });

  it('eval: headline numbers equal eval --json, misses are listed with why, filters work, hostile text stays text', async () => {
    const r = await cli(['eval', 'cases.jsonl', '--no-examples', '--json', '--report', 'eval.html'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const { page, errors, requests, url } = await openReport(browser, join(fx.dir, 'eval.html'));
    // Headline: the exact numbers of --json, shown to three decimals.
    for (const [m, v] of Object.entries(r.json.metrics as Record<string, number>)) {
      const card = page.locator(`#headline [data-metric="${m}"]`);
      expect(Number(await card.getAttribute('data-value'))).toBe(v);
      expect(await card.locator('.v').textContent()).toBe(v.toFixed(3));
    }
    // Every miss of --json has its row.
    const rows = page.locator('#misses tbody tr.row');
    expect(await rows.count()).toBe(r.json.misses.length);
    const miss = rows.filter({ hasText: 'share price quote of a listed company' });
    expect(await miss.count()).toBe(1);
    expect(await miss.locator('td').nth(5).textContent()).toBe('stock_quote');
    // Its detail: the tool ranked above, and the words that matched in which fields.
    await miss.click();
    const detail = page.locator('#misses tr.detail');
    expect(await detail.textContent()).toMatch(/stock_quote[\s\S]*quot/);
    await miss.click();
    // A translated match is shown in the user's words (the Chinese query word), not as an English stem.
    const zh = rows.filter({ hasText: '暴雨预警' });
    await zh.click();
    const chips = await page.locator('#misses tr.detail .chip b').allTextContents();
    expect(chips.some((w) => /[\u4e00-\u9fff]/.test(w))).toBe(true);
    expect(chips.every((w) => !/^(warn|alert|rainstorm)$/.test(w))).toBe(true);
    await zh.click();

    // Filtering: by text, by language, and back.
    await page.fill('#miss-filter', 'quokka');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('zebra quokka');
    await page.fill('#miss-filter', '');
    await page.selectOption('#miss-lang', 'zh');
    expect(await rows.count()).toBe(1);
    await page.selectOption('#miss-lang', '');
    expect(await rows.count()).toBe(r.json.misses.length);
    // The keyboard opens a row too.
    await rows.first().focus();
    await page.keyboard.press('Enter');
    expect(await rows.first().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Enter');
    // Sorting by rank puts the query that ranked nothing last.
    await page.click('#misses th[data-key="rank"]');
    await page.click('#misses th[data-key="rank"]');
    expect(await rows.last().textContent()).toContain('zebra quokka');

    // Confusable tools: the pair, with both descriptions side by side, the hostile one as text.
    const pair = page.locator('#confusable tbody tr.row').filter({ hasText: 'stock_quote' });
    expect(await pair.count()).toBe(1);
    await pair.click();
    const sides = await page.locator('#confusable tr.detail .desc').allTextContents();
    expect(sides).toContain(HOSTILE_DESCRIPTION);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2); // the data and the page's own script

    // Tokens: the full binding figure of the registry.
    expect(await page.locator('#tokens [data-tokens="full"] .v').textContent()).toMatch(/^[\d,]+$/);
    // Charts drew (uPlot canvases).
    expect(await page.locator('#curve canvas').count()).toBeGreaterThan(0);

    // The language switch, and back.
    await page.click('#lang');
    const h1 = await page.locator('h1').textContent();
    await page.click('#lang');
    expect(await page.locator('h1').textContent()).not.toBe(h1);

    await keepScreenshot(page, 'eval-report.png');
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
  }, 60_000);

  it('even script running inside the page cannot call home: the CSP refuses fetch and images, Trusted Types refuse markup', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      expect((await cli([...EVAL, '--report', 'home.html'], { cwd: fx.dir })).code).toBe(0);
      const { page, errors } = await openReport(browser, join(fx.dir, 'home.html'));
      // What a bug (or injected code) could try. page.evaluate runs in the page, under its CSP.
      const outcome = await page.evaluate(async (u) => {
        const fetched = await fetch(u).then(
          () => 'fetched',
          () => 'refused',
        );
        const img = new Image();
        const loaded = await new Promise((r) => {
          img.onload = () => r('loaded');
          img.onerror = () => r('refused');
          img.src = `${u}img`;
        });
        let markup = 'refused';
        try {
          document.body.insertAdjacentHTML('beforeend', '<b>x</b>');
          markup = 'parsed';
        } catch {
          /* Trusted Types */
        }
        return { fetched, loaded, markup };
      }, `http://127.0.0.1:${port}/`);
      expect(outcome).toEqual({ fetched: 'refused', loaded: 'refused', markup: 'refused' });
      expect(errors.some((e) => /Content Security Policy/i.test(e))).toBe(true);
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);

  it('eval --compare: the changed queries with the contract field that caused them, in dark mode', async () => {
    const before = await cli(['eval', 'cases.jsonl', '--no-examples', '--json'], { cwd: fx.dir });
    writeFileSync(join(fx.dir, 'before.json'), before.stdout);
    const f = join(fx.dir, 'tool_registry', 'stock_quote.yaml');
    const text = readFileSync(f, 'utf8');
    writeFileSync(f, text.replace('Share price quote of a listed company stock by ticker.', 'Crypto coin ticker.'));
    try {
      const r = await cli(
        ['eval', 'cases.jsonl', '--no-examples', '--compare', 'before.json', '--report', 'compare.html'],
        { cwd: fx.dir },
      );
      expect(r.code).toBe(0);
      const { page, errors, requests, url } = await openReport(browser, join(fx.dir, 'compare.html'), {
        colorScheme: 'dark',
      });
      const rows = page.locator('#changes tbody tr');
      expect(await rows.count()).toBeGreaterThan(0);
      const better = rows.filter({ hasText: 'share price quote of a listed company' });
      expect(await better.textContent()).toMatch(/stock_quote: description changed/);
      await page.selectOption('#change-verdict', 'worse');
      expect(await rows.first().textContent()).not.toMatch(/share price quote/);
      await keepScreenshot(page, 'eval-compare-dark.png');
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      writeFileSync(f, text);
    }
  }, 60_000);

  it('stats: calls over time, latency percentiles, breaker openings, per-tool table with a filter', async () => {
    const t0 = Date.parse('2026-05-01T10:00:00Z');
    const rec = (i: number, tool: string, ok: boolean, ms: number, extra: object = {}) =>
      JSON.stringify({
        ts: new Date(t0 + i * 7_000).toISOString(),
        tool,
        ok,
        outcome: ok ? 'ok' : 'tool_failed',
        exitCode: ok ? 0 : 4,
        loadMs: i % 5 === 0 ? 40 : 0,
        runMs: ms,
        durationMs: ms + 5,
        cacheHit: i % 5 !== 0,
        sandbox: 'bwrap',
        via: 'cli',
        ...extra,
      });
    const lines = [
      ...Array.from({ length: 40 }, (_, i) => rec(i, 'query_weather', true, 100 + i)),
      ...Array.from({ length: 6 }, (_, i) => rec(40 + i, 'flaky<img src=x onerror=window.__pwned=1>', false, 20)),
      rec(50, 'send_email', true, 900, { sandbox: 'none' }),
    ];
    fx.write('.toolbox/calls.jsonl', lines.join('\n') + '\n');
    const json = await cli(['stats', '--json'], { cwd: fx.dir });
    const r = await cli(['stats', '--report', 'stats.html'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const { page, errors, requests, url } = await openReport(browser, join(fx.dir, 'stats.html'));
    expect(await page.locator('#totals [data-stat="calls"] .v').textContent()).toBe('47');
    expect(await page.locator('#totals [data-stat="openings"] .v').textContent()).toBe('1');
    const rows = page.locator('#tools tbody tr');
    expect(await rows.count()).toBe(json.json.tools.length);
    expect(await rows.first().textContent()).toContain('query_weather'); // sorted by calls
    await page.fill('#tool-filter', 'flaky');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('flaky<img src=x onerror=window.__pwned=1>');
    expect(await page.locator('img').count()).toBe(0);
    await page.selectOption('#latency-tool', 'send_email');
    expect(await page.locator('#latency-note').textContent()).toMatch(/p50 905 ms/);
    expect(await page.locator('#calls-chart canvas').count()).toBeGreaterThan(0);
    await page.fill('#tool-filter', '');
    await keepScreenshot(page, 'stats-report.png');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
  }, 60_000);
});

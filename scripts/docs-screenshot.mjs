// Regenerates docs/img/eval-report.png: `toolbox eval --report` on the shipped registry (its
// hand-written cases and the contracts' examples, as role assistant), opened in Debian's headless
// Chromium, the first missed query expanded. Run after `npm run build`: node scripts/docs-screenshot.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from './chromium.mjs';

const out = join('docs', 'img', 'eval-report.png');
const dir = mkdtempSync(join(tmpdir(), 'toolbox-docs-shot-'));
try {
  const file = join(dir, 'eval.html');
  const r = spawnSync(
    process.execPath,
    ['bin/toolbox.js', 'eval', 'test/fixtures/select/shipped-cases.jsonl', '--role', 'assistant', '--report', file],
    { encoding: 'utf8', env: { ...process.env, LANG: 'en_US.UTF-8' } },
  );
  if (r.status !== 0 && r.status !== 1) throw new Error(r.stderr);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-ready="1"]');
  const first = page.locator('#misses tbody tr.row').first();
  if (await first.count()) await first.click();
  mkdirSync(join('docs', 'img'), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
  await browser.close();
  process.stderr.write(`${out}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

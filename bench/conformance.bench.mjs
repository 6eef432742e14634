// The official MCP conformance suite's server scenarios against `toolbox serve --http --expose all`
// on the fixture registry of test/fixtures/conformance: one line per scenario (passed/failed checks).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO } from './lib.mjs';
import { runSuite, summaryLines, SUITE_VERSION } from '../scripts/conformance.mjs';

function serve(registry) {
  const child = spawn(
    process.execPath,
    // The suite's server mode sends no headers, so no token: --no-auth (loopback, for this run only).
    [BIN, 'serve', '--registry', registry, '--http', '0', '--json', '--expose', 'all', '--no-auth'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      try {
        resolve({ child, url: JSON.parse(out).url });
      } catch {
        /* not complete yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

export default async function () {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-conformance-'));
  cpSync(join(REPO, 'test', 'fixtures', 'conformance'), dir, { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const { child, url } = await serve(join(dir, 'tool_registry'));
  try {
    const { scenarios } = await runSuite(url);
    console.log(`MCP conformance suite ${SUITE_VERSION}, server scenarios (--suite all):\n`);
    console.log(summaryLines(scenarios).join('\n'));
    if (scenarios.some((s) => s.offered && s.failed > 0)) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

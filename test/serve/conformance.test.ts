// The official MCP conformance suite (server scenarios, --suite all) against the real `toolbox serve
// --http`, on a fixture registry whose contracts implement the suite's test tools through the ordinary
// loaders (Python, Node, command). The suite and a Node 22 binary come from the npm registry (see
// scripts/conformance.mjs); the first run installs them into the OS temp folder.
import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, tempProject } from '../helpers.js';
import { httpServe } from './fixtures.js';
// @ts-expect-error plain ESM script without types
import { runSuite, summaryLines } from '../../scripts/conformance.mjs';

interface Scenario {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  offered: boolean;
  checks: { id: string; status: string; details?: Record<string, unknown> }[];
}

const proj = tempProject();
cpSync(join(REPO, 'test', 'fixtures', 'conformance'), proj.dir, { recursive: true });
symlinkSync(join(REPO, 'node_modules'), join(proj.dir, 'node_modules'));
let srv: Awaited<ReturnType<typeof httpServe>>;
let scenarios: Scenario[] = [];

beforeAll(async () => {
  // The suite's server mode takes only a URL (no headers): the one place the tests serve --no-auth.
  srv = await httpServe(join(proj.dir, 'tool_registry'), ['--expose', 'all', '--no-auth']);
  const r = (await runSuite(srv.url)) as { scenarios: Scenario[]; printed: string };
  scenarios = r.scenarios;
  process.stderr.write(`\nMCP conformance ${'(@modelcontextprotocol/conformance 0.1.16)'}:\n`);
  process.stderr.write(summaryLines(scenarios).join('\n') + '\n');
}, 900_000);

afterAll(async () => {
  srv?.child.kill('SIGTERM');
  await srv?.exited;
  proj.cleanup();
});

const byName = (n: string) => scenarios.find((s) => s.scenario === n)!;

describe('MCP conformance suite against serve --http', () => {
  it('runs every tools, lifecycle and transport scenario, and each passes with no failed check', () => {
    const offered = scenarios.filter((s) => s.offered).map((s) => s.scenario);
    for (const name of [
      'server-initialize',
      'ping',
      'logging-set-level',
      'tools-list',
      'tools-call-simple-text',
      'tools-call-image',
      'tools-call-audio',
      'tools-call-embedded-resource',
      'tools-call-mixed-content',
      'tools-call-with-logging',
      'tools-call-error',
      'tools-call-with-progress',
      'tools-call-sampling',
      'tools-call-elicitation',
      'json-schema-2020-12',
      'elicitation-sep1034-defaults',
      'elicitation-sep1330-enums',
      'server-sse-polling',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ]) {
      expect(offered).toContain(name);
    }
    const failing = scenarios.filter((s) => s.offered && s.failed > 0).map((s) => s.scenario);
    expect(failing).toEqual([]);
    // Every offered scenario but server-sse-polling (warnings only, see below) has passing checks.
    const empty = scenarios.filter((s) => s.offered && s.passed === 0).map((s) => s.scenario);
    expect(empty).toEqual(['server-sse-polling']);
  });

  it('passes for the right reason: the fixture tools answered, not an error that happens to satisfy a check', () => {
    const details = (n: string) => JSON.stringify(byName(n).checks.map((c) => c.details));
    expect(details('tools-call-error')).toContain('This tool intentionally returns an error for testing');
    expect(details('tools-call-simple-text')).toContain('This is a simple text response for testing.');
    expect(details('tools-call-sampling')).toContain('LLM response: This is a test response from the client');
    expect(details('tools-call-elicitation')).toContain('User response: action=accept');
    expect(details('tools-call-with-progress')).toContain('Progress test completed');
    expect(details('tools-call-with-logging')).toContain('Tool processing data');
    // server-sse-polling: our test_reconnection answered on the POST stream (a missing tool is a FAILURE).
    expect(details('server-sse-polling')).toContain('Reconnection test completed.');
  });

  it('reports prompts, resources and completion as not offered (they fail: toolbox serves tools only)', () => {
    const notOffered = scenarios.filter((s) => !s.offered);
    expect(notOffered.length).toBeGreaterThan(0);
    for (const s of notOffered) expect(s.scenario).toMatch(/^(prompts|resources|completion)-/);
    expect(notOffered.every((s) => s.failed > 0)).toBe(true);
  });
});

// The official MCP conformance suite (server side) against the real `toolbox serve --http`, once per
// protocol revision it serves (--requirements 2025-11-25 and --requirements 2026-07-28), on a fixture
// registry whose contracts implement the suite's test tools through the ordinary loaders (Python,
// Node, command, http), checked against the baseline test/fixtures/conformance/expected-failures.yaml.
// The suite and a Node 22 binary come from the npm registry (see scripts/conformance.mjs); the first
// run installs them into the OS temp folder.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error plain ESM script without types
import * as suite from '../../scripts/conformance.mjs';

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: Record<string, unknown>;
}
interface Scenario {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  offered: boolean;
  checks: Check[];
}
interface Run {
  scenarios: Scenario[];
  printed: string;
  exitCode: number;
  revision: string;
  version: string;
}
const { runSuite, serveFixture, summaryLines, SUITE_VERSION, REVISIONS, EXPECTED_FAILURES } = suite as {
  runSuite(url: string, o: { revision: string }): Promise<Run>;
  serveFixture(o: { args: string[] }): Promise<{ url: string; close(): Promise<void> }>;
  summaryLines(s: Scenario[]): string[];
  SUITE_VERSION: string;
  REVISIONS: string[];
  EXPECTED_FAILURES: string;
};

const runs = new Map<string, Run>();
let fx: Awaited<ReturnType<typeof serveFixture>> | undefined;

beforeAll(async () => {
  fx = await serveFixture({ args: ['--expose', 'all'] });
  for (const revision of REVISIONS) {
    const r = await runSuite(fx.url, { revision });
    runs.set(revision, r);
    process.stderr.write(
      `\nMCP conformance (@modelcontextprotocol/conformance ${r.version}), --requirements ${revision}:\n` +
        `${summaryLines(r.scenarios).join('\n')}\n`,
    );
  }
}, 1_800_000);

afterAll(async () => {
  await fx?.close();
});

const scenario = (revision: string, name: string) => runs.get(revision)!.scenarios.find((s) => s.scenario === name);
const details = (revision: string, name: string) =>
  JSON.stringify(scenario(revision, name)?.checks.map((c) => c.details));

// What each revision requires of a tools server: every one of these must pass with no failed check
// and no warning (the suite counts warnings against the baseline too).
const REQUIRED: Record<string, string[]> = {
  '2025-11-25': [
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
    'elicitation-sep1034-defaults',
    'elicitation-sep1330-enums',
    'server-sse-multiple-streams',
    // SEP-1699: a priming event (id, empty data) and a retry field on every POST's SSE stream.
    'server-sse-polling',
    'server-session-lifecycle',
    'dns-rebinding-protection',
    'json-schema-2020-12',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-error',
    'tools-call-with-progress',
    'server-sse-multiple-streams',
    'dns-rebinding-protection',
    'http-header-validation',
    'http-custom-header-server-validation',
    'json-schema-2020-12',
    'sep-2164-resource-not-found',
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-missing-input-response',
    'input-required-result-result-type',
    'input-required-result-unsupported-methods',
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
  ],
};

describe(`MCP conformance suite ${SUITE_VERSION} against serve --http`, () => {
  it('pins the suite version it runs', () => {
    expect(SUITE_VERSION).toMatch(/^\d+\.\d+\.\d+(-[a-z]+\.\d+)?$/);
    for (const r of runs.values()) expect(r.version).toBe(SUITE_VERSION);
  });

  for (const revision of ['2025-11-25', '2026-07-28']) {
    it(`--requirements ${revision}: every tools, lifecycle, transport, caching and input-required scenario passes`, () => {
      const run = runs.get(revision)!;
      for (const name of REQUIRED[revision]!) {
        const s = scenario(revision, name);
        expect(s, `${name} ran`).toBeDefined();
        const bad = s!.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
        expect(bad.map((c) => `${name}: ${c.id}: ${c.errorMessage}`)).toEqual([]);
        expect(s!.passed, `${name} has passing checks`).toBeGreaterThan(0);
      }
      // The baseline holds: every failure is in it, and nothing in it passes (the suite's own verdict).
      expect(run.printed).toContain('Baseline check passed');
      expect(run.exitCode).toBe(0);
    });
  }

  it('the tasks extension scenarios pass (run, not required), but for a protocol error no tool can cause', () => {
    const tasks = runs.get('2026-07-28')!.scenarios.filter((x) => x.scenario.startsWith('tasks-'));
    expect(tasks.length).toBeGreaterThanOrEqual(9);
    const bad = tasks.flatMap((x) =>
      x.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${x.scenario}: ${c.id}`),
    );
    // protocol_error_job must end in a JSON-RPC error, where every failure of a toolbox tool is a tool error.
    expect(bad).toEqual(['tasks-lifecycle: sep-2663-tasks-get-status-failed']);
  });

  it('the caching scenario passes but for the prompts list toolbox does not have', () => {
    const s = scenario('2026-07-28', 'caching')!;
    const bad = s.checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'SKIPPED').map((c) => c.id);
    expect(bad).toEqual(['sep-2549-prompts-list-caching-hints']);
    expect(s.checks.find((c) => c.id === 'sep-2549-tools-list-caching-hints')?.status).toBe('SUCCESS');
  });

  it('passes for the right reason: the fixture tools answered, not an error that happens to satisfy a check', () => {
    const old = '2025-11-25';
    expect(details(old, 'tools-call-error')).toContain('This tool intentionally returns an error for testing');
    expect(details(old, 'tools-call-simple-text')).toContain('This is a simple text response for testing.');
    expect(details(old, 'tools-call-sampling')).toContain('LLM response: This is a test response from the client');
    expect(details(old, 'tools-call-elicitation')).toContain('User response: action=accept');
    expect(details(old, 'tools-call-with-progress')).toContain('Progress test completed');
    expect(details(old, 'tools-call-with-logging')).toContain('Tool processing data');
    const now = '2026-07-28';
    expect(details(now, 'tools-call-simple-text')).toContain('This is a simple text response for testing.');
    // The round-trips reached the tool and came back into the same call.
    expect(details(now, 'input-required-result-basic-elicitation')).toContain('Hello, Alice!');
    expect(details(now, 'input-required-result-request-state')).toContain('state-ok');
    expect(details(now, 'input-required-result-multi-round')).toContain('Alice likes blue.');
    expect(details(now, 'input-required-result-multiple-input-requests')).toContain('Hello there! Alice (1 roots)');
    // The capability check: the client declared sampling only, so the tool fell back to sampling.
    expect(details(now, 'input-required-result-capability-check')).toContain('made_up_name');
    expect(details(now, 'input-required-result-tampered-state')).toContain('Invalid or expired requestState');
    expect(details(now, 'server-stateless')).toContain('-32021');
  });

  it('the baseline names only prompts, resources and completion, each run failing them', () => {
    const entries = (parse(readFileSync(EXPECTED_FAILURES, 'utf8')) as { server: string[] }).server;
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries)
      expect(e).toMatch(
        /^(prompts-|resources-|completion-|input-required-result-non-tool-request$|caching:sep-2549-prompts-)/,
      );
    for (const s of [...runs.values()].flatMap((r) => r.scenarios).filter((x) => !x.offered))
      expect(s.scenario).toMatch(/^(prompts|resources|completion)-|non-tool-request|^sep-2164/);
  });
});

// The official MCP conformance suite's client scenarios at 2026-07-28 against toolbox as the client:
// `toolbox import mcp --url` and the mcp loader, driven by test/fixtures/conformance-client/client.mjs
// (the suite starts each scenario's server and runs that command with its URL). The suite and a Node 22
// binary come from the npm registry into the OS temp folder (scripts/conformance.mjs), version pinned.
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
interface Result {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  checks: Check[];
  printed: string;
  exitCode: number;
}
const { runClientScenarios, clientScenarios, SUITE_VERSION, CLIENT_COMMAND, CLIENT_EXPECTED_FAILURES } = suite as {
  runClientScenarios(command: string, scenarios: string[], o?: { specVersion?: string }): Promise<Result[]>;
  clientScenarios(revision: string): Promise<{ required: string[]; unscored: { scenario: string; reason: string }[] }>;
  SUITE_VERSION: string;
  CLIENT_COMMAND: string;
  CLIENT_EXPECTED_FAILURES: string;
};

let required: string[] = [];
let results: Result[] = [];

beforeAll(async () => {
  const set = await clientScenarios('2026-07-28');
  required = set.required;
  // Required by 2026-07-28 (authorization included), and the unscored scenario about schemas (added
  // after the release). The unscored extensions (client credentials, DPoP, enterprise-managed and
  // workload identity authorization) are not run: toolbox does not implement them (docs/mcp.md).
  const run = [...required, 'json-schema-2020-12-preservation'];
  results = await runClientScenarios(CLIENT_COMMAND, run, { specVersion: '2026-07-28' });
  process.stderr.write(
    `\nMCP conformance (@modelcontextprotocol/conformance ${SUITE_VERSION}), client scenarios at 2026-07-28:\n` +
      results
        .map(
          (r) =>
            `${r.failed ? '✗' : '✓'} ${r.scenario}: ${r.passed} passed, ${r.failed} failed${r.warnings ? `, ${r.warnings} warning(s)` : ''}`,
        )
        .join('\n') +
      '\n',
  );
}, 1_800_000);
afterAll(() => undefined);

const result = (name: string) => results.find((r) => r.scenario === name);

describe(`MCP conformance suite ${SUITE_VERSION}: toolbox as the client, 2026-07-28`, () => {
  it('runs every client scenario the revision requires, and each passes with no warning', () => {
    expect(required.length).toBeGreaterThan(5);
    for (const r of results) {
      const bad = r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(bad.map((c) => `${r.scenario}: ${c.id}: ${c.errorMessage}`)).toEqual([]);
      expect(r.passed, `${r.scenario} has passing checks`).toBeGreaterThan(0);
      expect(r.exitCode, r.printed).toBe(0);
    }
    for (const s of required) expect(result(s), `${s} ran`).toBeDefined();
    expect(required.filter((s) => s.startsWith('auth/')).length).toBeGreaterThan(20);
  });

  it('passes for the right reason: the calls reached the servers with what the scenarios expect', () => {
    const json = (n: string) => JSON.stringify(result(n)?.checks.map((c) => c.details));
    expect(json('tools_call')).toContain('"result":5');
    // The schema came back from the echo tool exactly as the server listed it.
    expect(result('json-schema-2020-12-preservation')!.failed).toBe(0);
    expect(json('http-custom-headers')).toContain('Mcp-Param-Region');
    // OAuth: the token toolbox got was the one the server checked, on the import and on the call.
    const bearer = result('auth/metadata-default')!.checks.filter((c) => c.id === 'valid-bearer-token');
    expect(bearer.length).toBeGreaterThanOrEqual(2);
    expect(bearer.every((c) => c.status === 'SUCCESS')).toBe(true);
    // The issuer in the authorization response is checked (RFC 9207): a wrong one is refused.
    expect(result('auth/iss-wrong-issuer')!.failed).toBe(0);
  });

  it('the baseline names only resources, prompts or completion scenarios', () => {
    const entries = (parse(readFileSync(CLIENT_EXPECTED_FAILURES, 'utf8')) as { client: string[] }).client;
    for (const e of entries) expect(e).toMatch(/^(prompts|resources|completion)[-/]/);
  });
});

// Item 4: a contract's regexes cannot freeze toolbox (linear-time matching), and validate says so.
import { afterAll, describe, expect, it } from 'vitest';
import { cli, spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const schema = (pattern: string) =>
  `schema: { type: object, properties: { x: { type: string, pattern: ${JSON.stringify(pattern)} } }, required: [x] }`;
const p = project({
  'echo.sh': '#!/bin/sh\necho ok\n',
  'tool_registry/redos.yaml': contract('redos', 'command', '{ argv: [/bin/echo, "{{x}}"] }').replace(
    /^schema: .*$/m,
    schema('^(a+)+$'),
  ),
  'tool_registry/lookahead.yaml': contract('lookahead', 'command', '{ argv: [/bin/echo, "{{x}}"] }').replace(
    /^schema: .*$/m,
    schema('^(?=a)a+$'),
  ),
});
afterAll(() => p.cleanup());

describe('item 4: regexes cannot freeze anything', () => {
  it("an argument shaped against '^(a+)+$' is rejected at once (exit 2), not after hours of backtracking", async () => {
    expect(expected('redos-pattern', 'none')).toBe('blocked');
    // 2^40 backtracking steps: a backtracking engine does not finish within the child's timeout.
    const r = await spawnCli(['run', 'redos', '--x', `${'a'.repeat(40)}b`, '--json'], { cwd: p.dir, timeout: 30_000 });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code).toBe('invalid_arguments');
    const ok = await cli(['run', 'redos', '--x', 'aaaa', '--json'], { cwd: p.dir });
    expect([ok.code, ok.json?.result]).toEqual([0, 'aaaa']);
  }, 40_000);

  it('validate refuses a pattern that needs backtracking and warns on nested quantifiers', async () => {
    expect(expected('regex-backtracking-only', 'none')).toBe('refused');
    const r = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    const ds = r.json.diagnostics as { rule: string; file: string; severity: string; line: number }[];
    const of = (f: string) => ds.filter((d) => d.file.endsWith(f)).map((d) => `${d.rule}:${d.severity}`);
    expect(of('lookahead.yaml')).toContain('invalid-json-schema:error');
    expect(of('redos.yaml')).toContain('pattern-nested-quantifier:warning');
    const run = await cli(['run', 'lookahead', '--x', 'a', '--json'], { cwd: p.dir });
    expect(run.code).toBe(3);
  });
});

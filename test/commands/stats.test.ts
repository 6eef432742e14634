import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { runProject, shellTool } from '../fixtures/tools/r_project.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('toolbox stats', () => {
  const schema = 'schema:\n  type: object\n  properties:\n    mode: { type: string }\n  required: [mode]\n';

  it('summarises the calls per tool (--json and a human table)', async () => {
    const p = runProject({
      flaky: shellTool('flaky', 'r_flaky.sh', ['{{mode}}'], schema),
      echo: shellTool('echo', 'r_echo.sh', ['x']),
    });
    cleanup = p.cleanup;
    const empty = await cli(['stats', '--json'], { cwd: p.dir });
    expect(empty.json).toEqual({ tools: [] });
    for (const mode of ['ok', 'ok', 'ok', 'fail']) await cli(['run', 'flaky', '--mode', mode], { cwd: p.dir });
    await cli(['run', 'flaky'], { cwd: p.dir }); // missing --mode: refused, still a call
    await cli(['run', 'echo'], { cwd: p.dir });

    const r = await cli(['stats', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    const flaky = r.json.tools.find((t: { tool: string }) => t.tool === 'flaky');
    expect(flaky).toMatchObject({
      calls: 5,
      ok: 3,
      rejected: 1,
      successRate: 0.75, // the refused call (missing --mode) is the caller's error, not the tool's
      cacheHitRate: 0,
      breaker: 'closed',
      errors: { tool_failed: 1, invalid_arguments: 1 },
    });
    expect(flaky.p50Ms).toBeGreaterThan(0);
    expect(flaky.p95Ms).toBeGreaterThanOrEqual(flaky.p50Ms);
    expect(flaky.coldLoadMs).toBeGreaterThan(0);
    expect(r.json.tools.map((t: { tool: string }) => t.tool)).toEqual(['echo', 'flaky']);

    const h = await cli(['stats'], { cwd: p.dir });
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^tool +calls +rejected +success +p50 +p95 +cold load +cache hits +breaker/);
    expect(h.stdout).toMatch(/\nflaky +5 +1 +75% +\d+ ms +\d+ ms +\d+ ms +0% +closed/);
  });
});

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
    // success, then refusals and caller errors apart (issue 38)
    expect(h.stdout).toMatch(/^tool +calls +success +refused +caller err +p50 +p95 +cold load +cache hits +breaker/);
    expect(h.stdout).toMatch(/\nflaky +5 +75% +0 +1 +[\d.]+ m?s +[\d.]+ m?s +[\d.]+ m?s +0% +closed/);
  });

  it('a tool whose every call was refused is not "100%": refusals are counted apart (issue 38)', async () => {
    const p = runProject({
      // policy: only admins may call it
      admin_only: shellTool('admin_only', 'r_echo.sh', ['x'], undefined, 'permissions: { roles: [admin] }\n'),
    });
    cleanup = p.cleanup;
    for (let i = 0; i < 3; i++) {
      const r = await cli(['run', 'admin_only', '--role', 'guest'], { cwd: p.dir });
      expect(r.code).toBe(7);
    }
    const r = await cli(['stats', '--json'], { cwd: p.dir });
    expect(r.json.tools[0]).toMatchObject({
      tool: 'admin_only',
      calls: 3,
      ok: 0,
      failed: 0,
      refused: 3,
      rejected: 0,
      successRate: null,
      errors: { permission_denied: 3 },
    });
    const h = await cli(['stats'], { cwd: p.dir });
    expect(h.stdout).toMatch(/\nadmin_only +3 +- +3 +0 /);
    expect(h.stdout).not.toContain('100%');
    expect(h.stderr).toMatch(/admin_only: every call was refused by the sandbox or a policy/);
  });
});

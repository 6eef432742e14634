import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';
import { contract } from '../deps/fixtures.js';
import { problemCount } from '../../src/commands/doctor.js';

const SECRET = 'doctor-secret-value-9876';
type Problem = { severity: string; area: string; message: string; fix: string };

let p: ReturnType<typeof tempProject>;
beforeEach(() => {
  p = tempProject();
});
afterEach(() => p.cleanup());

describe('toolbox doctor', () => {
  it('works without a registry: reports it missing with the fix `toolbox init`, exit 1', async () => {
    const r = await cli(['doctor', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.healthy).toBe(false);
    expect(r.json.registry.found).toBe(false);
    expect(r.json.node.version).toBe(process.versions.node);
    expect(r.json.python.version).toMatch(/^3\./);
    const reg = r.json.problems.find((x: Problem) => x.area === 'registry');
    expect(reg).toMatchObject({ severity: 'error', fix: expect.stringContaining('toolbox init') });
    const human = await cli(['doctor'], { cwd: p.dir });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/node\s+\d+\./);
    expect(human.stdout).toMatch(/sandbox\s+/);
    expect(human.stdout).toContain('toolbox init');
  });

  it('reports a healthy registry, the sandbox tier and where state lives', async () => {
    p.write(
      'tool_registry/ok.yaml',
      contract(
        'fine_tool',
        'loader: node_module\nloader_config: { module: m.mjs }',
        'requires: { env: [PRESENT_T], bins: [node] }',
      ),
    );
    p.write('m.mjs', 'export default () => 1;\n');
    const r = await cli(['doctor', '--json'], { cwd: p.dir, env: { PRESENT_T: SECRET } });
    expect(r.json.registry).toMatchObject({ found: true, tools: 1, errors: 0 });
    expect(r.json.deps).toEqual({ tools: 1, ok: 1, missing: [] });
    expect(r.json.state.dir).toBe(`${p.dir}/.toolbox`);
    expect(r.json.state.items.map((i: { name: string }) => i.name)).toEqual([
      'cache/',
      'calls.jsonl',
      'breaker.json',
      'sessions/',
      'envs/',
      'results/',
      'servers/',
    ]);
    expect(['bwrap', 'unshare', 'none', undefined]).toContain(r.json.sandbox.tier);
    // Only the machine's sandbox can make it unhealthy here.
    expect(r.json.problems.filter((x: Problem) => x.severity === 'error' && x.area !== 'sandbox')).toEqual([]);
    expect(r.code).toBe(r.json.healthy ? 0 : 1);
    expect(r.stdout).not.toContain(SECRET);
  });

  it('lists broken contracts and missing dependencies, each with its fix, never env values', async () => {
    p.write('tool_registry/broken.yaml', 'id: [unclosed\n');
    p.write(
      'tool_registry/needs.yaml',
      contract(
        'needs_key',
        'loader: http\nloader_config: { url: "https://example.com/${DOC_TOKEN_T}" }',
        'requires: { env: [DOC_OTHER_T] }',
      ),
    );
    const r = await cli(['doctor', '--json'], { cwd: p.dir, env: { DOC_OTHER_T: SECRET } });
    expect(r.code).toBe(1);
    const areas = r.json.problems.filter((x: Problem) => x.severity === 'error').map((x: Problem) => x.area);
    expect(areas).toEqual(expect.arrayContaining(['registry', 'deps']));
    expect(r.json.problems.find((x: Problem) => x.area === 'registry').fix).toContain('toolbox validate');
    const dep = r.json.problems.find((x: Problem) => x.area === 'deps');
    expect(dep.message).toContain('DOC_TOKEN_T');
    expect(dep.fix).toContain('toolbox deps needs_key');
    const human = await cli(['doctor'], { cwd: p.dir, env: { DOC_OTHER_T: SECRET } });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/fix: .*toolbox deps needs_key/);
    expect(r.stdout + r.stderr + human.stdout + human.stderr).not.toContain(SECRET);
    // The closing count covers every problem listed, by severity.
    const errors = r.json.problems.filter((x: Problem) => x.severity === 'error').length;
    const warnings = r.json.problems.length - errors;
    const want = [errors && `${errors} error`, warnings && `${warnings} warning`].filter(Boolean);
    for (const w of want) expect(human.stderr).toContain(w as string);
  });

  it('counts problems by severity', () => {
    expect(problemCount([{ severity: 'error' }, { severity: 'warning' }, { severity: 'error' }])).toBe(
      '2 errors and 1 warning',
    );
    expect(problemCount([{ severity: 'warning' }])).toBe('1 warning');
    expect(problemCount([{ severity: 'error' }])).toBe('1 error');
  });
});

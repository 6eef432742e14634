import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertDeps } from '../../src/deps/assert.js';
import { checkDeps } from '../../src/deps/check.js';
import { depsMessage } from '../../src/deps/message.js';
import { ToolboxError } from '../../src/errors.js';
import { cli, tempProject } from '../helpers.js';
import { baseEnv, contract, fakeNodePackage, projectAt, PY_LOADER } from '../deps/fixtures.js';

const SECRET = 'sk-live-DO-NOT-PRINT-4242';

let p: ReturnType<typeof tempProject>;
beforeEach(() => {
  p = tempProject();
  fakeNodePackage(p.dir, 'left-pad', '1.3.0');
  p.write(
    'tool_registry/needs.yaml',
    contract(
      'needs_stuff',
      PY_LOADER,
      `requires:
  python: ["no_such_package_for_toolbox_tests", "pip>=999", "pip>=1"]
  bins: [no_such_program_for_toolbox]
  env: [MISSING_API_KEY_T, PRESENT_API_KEY_T]
  node: ["left-pad@^9"]`,
    ),
  );
  p.write(
    'tool_registry/fine.yaml',
    contract(
      'all_fine',
      'loader: node_module\nloader_config: { module: m.mjs }',
      'requires: { node: ["left-pad@^1"], env: [PRESENT_API_KEY_T], bins: [node] }',
    ),
  );
});
afterEach(() => p.cleanup());

const env = { PRESENT_API_KEY_T: SECRET, OTHER_SECRET_T: SECRET };

describe('toolbox deps', () => {
  it('prints one JSON document with every requirement and exits 1 when something is missing', async () => {
    const r = await cli(['deps', '--json'], { cwd: p.dir, env });
    expect(r.code).toBe(1);
    const byId = Object.fromEntries(r.json.tools.map((t: { id: string }) => [t.id, t]));
    expect(byId.all_fine.ok).toBe(true);
    expect(byId.needs_stuff.ok).toBe(false);
    const statuses = byId.needs_stuff.requirements.map(
      (q: { kind: string; name: string; status: string }) => `${q.kind}:${q.name}:${q.status}`,
    );
    expect(statuses).toEqual(
      expect.arrayContaining([
        'python:no_such_package_for_toolbox_tests:missing',
        'python:pip:wrong_version',
        'python:pip:ok',
        'bin:no_such_program_for_toolbox:missing',
        'env:MISSING_API_KEY_T:missing',
        'env:PRESENT_API_KEY_T:ok',
        'node:left-pad:wrong_version',
      ]),
    );
    for (const q of byId.needs_stuff.requirements)
      expect(Object.keys(q).sort()).toEqual(['fix', 'found', 'kind', 'name', 'status', 'wanted']);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('prints a table per tool with the fix commands, never an env value', async () => {
    const r = await cli(['deps'], { cwd: p.dir, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/needs_stuff/);
    expect(r.stdout).toMatch(/wrong version/);
    expect(r.stdout).toContain("python3 -m pip install 'pip>=999'");
    expect(r.stdout).toContain("npm install 'left-pad@^9'");
    expect(r.stdout).toContain('export MISSING_API_KEY_T=…');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('exits 0 when the named tools have everything', async () => {
    const r = await cli(['deps', 'all_fine'], { cwd: p.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/all_fine/);
    expect(r.stdout).not.toMatch(/needs_stuff/);
  });

  it('rejects an unknown id with exit 2 and a suggestion', async () => {
    const r = await cli(['deps', 'all_fin', '--json'], { cwd: p.dir, env });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('unknown_tool');
    expect(r.errorJson.error.message).toContain('all_fine');
  });
});

describe('assertDeps (the check before run)', () => {
  it('throws missing_dependencies, exit 6, with the message `deps` prints; silent when all is there', async () => {
    const { project, entry } = projectAt(p.dir);
    const e = await assertDeps(project, entry('needs_stuff'), { env: baseEnv(env) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ToolboxError);
    expect(e).toMatchObject({ code: 'missing_dependencies', exitCode: 6 });
    const [res] = await checkDeps(project, [entry('needs_stuff')], { env: baseEnv(env) });
    expect((e as ToolboxError).message).toBe(depsMessage(res!));
    expect((e as ToolboxError).hint).toContain("-m pip install 'pip>=999'");
    expect(
      JSON.stringify({ m: (e as ToolboxError).message, h: (e as ToolboxError).hint, d: (e as ToolboxError).details }),
    ).not.toContain(SECRET);
    const human = await cli(['deps', 'needs_stuff'], { cwd: p.dir, env });
    expect(human.stdout).toContain(depsMessage(res!).replace(/^tool '[^']*' is /, ''));
    await expect(assertDeps(project, entry('all_fine'), { env: baseEnv(env) })).resolves.toBeUndefined();
  });
});

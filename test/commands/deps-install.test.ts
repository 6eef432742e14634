import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolInterpreter } from '../../src/deps/interpreter.js';
import { cli, tempProject } from '../helpers.js';
import { contract, makeWheel, projectAt, PY_LOADER } from '../deps/fixtures.js';

// No package index here: the requirement is a hand-made wheel next to the contract.
describe('toolbox deps --install', () => {
  let p: ReturnType<typeof tempProject>;
  beforeAll(() => {
    p = tempProject();
    makeWheel(join(p.dir, 'tool_registry', 'w', 'wheels'), 'tbxdemo', '1.2.0');
    p.write('tool_registry/w/requirements.txt', './wheels/tbxdemo-1.2.0-py3-none-any.whl\n');
    p.write('tool_registry/w/w.yaml', contract('wheel_tool', PY_LOADER, 'requires: { python: requirements.txt }'));
    p.write(
      'tool_registry/n.yaml',
      contract('env_only', 'loader: http\nloader_config: { url: "https://example.com/" }', 'requires: { env: [HOME] }'),
    );
  });
  afterAll(() => p.cleanup());

  it('is missing before, installs into .toolbox/envs/<id>/ from a local wheel, and is ok after', async () => {
    const before = await cli(['deps', 'wheel_tool', '--json'], { cwd: p.dir });
    expect(before.code).toBe(1);
    expect(before.json.tools[0].requirements.find((r: { name: string }) => r.name === 'tbxdemo')).toMatchObject({
      status: 'missing',
      fix: expect.stringContaining('-m pip install -r tool_registry/w/requirements.txt'),
    });

    const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const install = Object.fromEntries(r.json.install.map((i: { id: string; status: string }) => [i.id, i]));
    expect(install.wheel_tool).toMatchObject({
      status: 'installed',
      venv: join(p.dir, '.toolbox', 'envs', 'wheel_tool'),
    });
    expect(install.env_only.status).toBe('skipped');
    const tool = r.json.tools.find((t: { id: string }) => t.id === 'wheel_tool');
    expect(tool.ok).toBe(true);
    expect(tool.requirements.find((x: { name: string }) => x.name === 'tbxdemo')).toMatchObject({
      status: 'ok',
      found: '1.2.0',
    });

    // The python loader asks toolInterpreter; the venv really holds the package.
    const { project, entry } = projectAt(p.dir);
    const py = toolInterpreter(project, entry('wheel_tool'));
    expect(py).toBe(join(p.dir, '.toolbox', 'envs', 'wheel_tool', 'bin', 'python3'));
    expect(execFileSync(py!, ['-c', 'import tbxdemo; print(tbxdemo.VERSION)'], { encoding: 'utf8' }).trim()).toBe(
      '1.2.0',
    );
    expect(toolInterpreter(project, entry('env_only'))).toBeUndefined();
  }, 120_000);

  it('reports failed installs (a corrupt wheel, a path that does not exist) with exit 1 and a fix', async () => {
    p.write('tool_registry/bad/bad-1.0-py3-none-any.whl', 'not a zip');
    p.write(
      'tool_registry/bad/bad.yaml',
      contract('corrupt_tool', PY_LOADER, 'requires: { python: ["./bad-1.0-py3-none-any.whl"] }'),
    );
    p.write(
      'tool_registry/ghost.yaml',
      contract('ghost_tool', PY_LOADER, 'requires: { python: ["./nowhere/ghost-1.0-py3-none-any.whl"] }'),
    );
    const r = await cli(['deps', 'corrupt_tool', 'ghost_tool', '--install', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.install[0]).toMatchObject({
      id: 'corrupt_tool',
      status: 'failed',
      error: expect.stringMatching(/^pip install failed/),
      fix: expect.stringContaining('-m pip install'),
    });
    expect(r.json.install[1]).toMatchObject({
      id: 'ghost_tool',
      status: 'failed',
      error: expect.stringMatching(/does not exist/),
    });
    // Not marked: the loader keeps using the tool's own interpreter.
    expect(existsSync(join(p.dir, '.toolbox', 'envs', 'corrupt_tool', 'toolbox-env.json'))).toBe(false);
    expect(existsSync(join(p.dir, '.toolbox', 'envs', 'ghost_tool'))).toBe(false);
    const { project, entry } = projectAt(p.dir);
    expect(toolInterpreter(project, entry('corrupt_tool'))).toBeUndefined();
  }, 120_000);
});

import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDeps } from '../../src/deps/check.js';
import type { RequirementResult, ToolDeps } from '../../src/deps/types.js';
import { tempProject } from '../helpers.js';
import { baseEnv, contract, fakeDist, fakeNodePackage, makeVenv, projectAt, PY_LOADER } from './fixtures.js';

const row = (t: ToolDeps, name: string, wanted?: string): RequirementResult => {
  const r = t.requirements.find((x) => x.name === name && (wanted === undefined || x.wanted === wanted));
  if (!r) throw new Error(`no row ${name} ${wanted ?? ''} in ${JSON.stringify(t.requirements)}`);
  return r;
};

let p: ReturnType<typeof tempProject>;
let site: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  p = tempProject({ 'tool_registry/.keep': '' });
  // The checker runs in the sandbox and sees what a tool would: python3 is a venv first on PATH (with
  // the system's packages, so pip is there), and a *.dist-info folder in its site-packages is an
  // installed distribution for importlib.metadata: real metadata lookups, no pip.
  const venv = join(p.dir, 'py');
  site = makeVenv(venv, ['--system-site-packages']);
  fakeDist(site, 'fakepkg', '1.5');
  env = baseEnv({ PATH: `${join(venv, 'bin')}:${process.env.PATH}` });
});
afterEach(() => p.cleanup());

describe('python requirements (real interpreter, packaging inside it)', () => {
  it('reports missing, too old, satisfied and marker-excluded requirements', async () => {
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        PY_LOADER,
        `requires:
  python:
    - no_such_package_for_toolbox_tests
    - pip>=999
    - pip>=1
    - pip; python_version < "3.0"
    - fakepkg~=1.4
    - fakepkg==1.*
    - fakepkg!=1.5
    - fakepkg>=1,<2; sys_platform == "${process.platform}"
`,
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [t] = await checkDeps(project, entries, { env, cache: false });
    expect(t!.ok).toBe(false);
    expect(row(t!, 'no_such_package_for_toolbox_tests')).toMatchObject({ status: 'missing', found: null });
    expect(row(t!, 'no_such_package_for_toolbox_tests').fix).toMatch(
      /-m pip install no_such_package_for_toolbox_tests$/,
    );
    const tooOld = row(t!, 'pip', 'pip>=999');
    expect(tooOld.status).toBe('wrong_version');
    expect(tooOld.found).toMatch(/^\d+\./);
    expect(tooOld.fix).toContain("pip install 'pip>=999'");
    expect(row(t!, 'pip', 'pip>=1')).toMatchObject({ status: 'ok', fix: null });
    expect(row(t!, 'pip', 'pip; python_version < "3.0"')).toMatchObject({ status: 'skipped', fix: null });
    expect(row(t!, 'fakepkg', 'fakepkg~=1.4')).toMatchObject({ status: 'ok', found: '1.5' });
    expect(row(t!, 'fakepkg', 'fakepkg==1.*').status).toBe('ok');
    expect(row(t!, 'fakepkg', 'fakepkg!=1.5').status).toBe('wrong_version');
    expect(row(t!, 'fakepkg', `fakepkg>=1,<2; sys_platform == "${process.platform}"`).status).toBe('ok');
    expect(row(t!, 'python')).toMatchObject({ status: 'ok' });
  });

  it('checks the Python version itself', async () => {
    p.write('tool_registry/a.yaml', contract('a', PY_LOADER, 'requires: { python: ["python>=3.6"] }'));
    p.write('tool_registry/b.yaml', contract('b', PY_LOADER, 'requires: { python: ["python>=99"] }'));
    const { project, entries } = projectAt(p.dir);
    const [a, b] = await checkDeps(project, entries, { env, cache: false });
    expect(row(a!, 'python').status).toBe('ok');
    expect(row(b!, 'python')).toMatchObject({ status: 'wrong_version', found: expect.stringMatching(/^3\./) });
  });

  it('reads a requirements.txt relative to the contract (comments, -r includes, options)', async () => {
    p.write(
      'tool_registry/t/requirements.txt',
      '# deps\n--index-url https://example.invalid/simple\nfakepkg>=1.0  # ok\n-r more.txt\n',
    );
    p.write('tool_registry/t/more.txt', 'no_such_package_for_toolbox_tests==1.0\n');
    p.write('tool_registry/t/a.yaml', contract('a', PY_LOADER, 'requires: { python: requirements.txt }'));
    const { project, entries } = projectAt(p.dir);
    const [t] = await checkDeps(project, entries, { env, cache: false });
    expect(row(t!, 'fakepkg').status).toBe('ok');
    const miss = row(t!, 'no_such_package_for_toolbox_tests');
    expect(miss.status).toBe('missing');
    expect(miss.fix).toMatch(/-m pip install -r tool_registry\/t\/more\.txt$/);
  });

  it('uses loader_config.python (a venv folder relative to the project root); packaging-less fallback', async () => {
    // A venv without pip has neither packaging nor pip._vendor: versions are compared by pep440 in Node.
    fakeDist(makeVenv(join(p.dir, 'venv')), 'fakepkg', '1.5');
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        'loader: python_function\nloader_config: { module: m, function: f, python: venv }',
        `requires:
  python: ["pip>=1", "fakepkg~=1.4", "fakepkg>=2", "fakepkg==1.*", "fakepkg; python_version < '3.0'", "fakepkg; python_version >= '3.0' and os_name == 'posix'"]`,
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [t] = await checkDeps(project, entries, { env, cache: false });
    expect(t!.interpreter).toBe(join(p.dir, 'venv', 'bin', 'python3'));
    expect(row(t!, 'pip').status).toBe('missing'); // the default python3 has pip; this venv does not
    expect(row(t!, 'pip').fix).toMatch(/^venv\/bin\/python3 -m pip install/);
    expect(row(t!, 'fakepkg', 'fakepkg~=1.4').status).toBe('ok');
    expect(row(t!, 'fakepkg', 'fakepkg>=2')).toMatchObject({ status: 'wrong_version', found: '1.5' });
    expect(row(t!, 'fakepkg', 'fakepkg==1.*').status).toBe('ok');
    expect(row(t!, 'fakepkg', "fakepkg; python_version < '3.0'").status).toBe('skipped');
    expect(row(t!, 'fakepkg', "fakepkg; python_version >= '3.0' and os_name == 'posix'").status).toBe('ok');
  });

  it('reports an interpreter that does not exist', async () => {
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        'loader: python_function\nloader_config: { module: m, function: f, python: .venv-missing }',
        'requires: { python: ["pip"] }',
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [t] = await checkDeps(project, entries, { env, cache: false });
    expect(row(t!, 'python')).toMatchObject({ status: 'missing', fix: 'python3 -m venv .venv-missing' });
  });
});

describe('node, bins, env', () => {
  it('resolves node packages from the module folder upward and compares semver ranges', async () => {
    fakeNodePackage(p.dir, 'left-pad', '1.3.0');
    fakeNodePackage(join(p.dir, 'tool_registry', 'js'), 'left-pad', '2.0.0-beta.1');
    p.write('tool_registry/js/mod.mjs', 'export default () => 1;\n');
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        'loader: node_module\nloader_config: { module: tool_registry/js/mod.mjs }',
        'requires: { node: { left-pad: ">=2.0.0-0", fs: "*" } }',
      ),
    );
    p.write(
      'tool_registry/b.yaml',
      contract(
        'b',
        'loader: node_module\nloader_config: { module: mod.mjs }',
        'requires: { node: ["left-pad@^1.2", "left-pad@^2", "@scope/absent@1"] }',
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [a, b] = await checkDeps(project, entries, { env, cache: false });
    expect(row(a!, 'left-pad')).toMatchObject({ status: 'ok', found: '2.0.0-beta.1' });
    expect(row(a!, 'fs')).toMatchObject({ status: 'ok', found: 'builtin' });
    expect(row(b!, 'left-pad', '^1.2')).toMatchObject({ status: 'ok', found: '1.3.0' });
    expect(row(b!, 'left-pad', '^2')).toMatchObject({
      status: 'wrong_version',
      found: '1.3.0',
      fix: "npm install 'left-pad@^2'",
    });
    expect(row(b!, '@scope/absent')).toMatchObject({ status: 'missing', wanted: '1' });
  });

  it('finds executables on PATH and compares their --version with semver', async () => {
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        'loader: command\nloader_config: { argv: [no_such_program_for_toolbox] }',
        `requires:
  bins: [git, { name: node, version: ">=18" }, { name: node, version: ">=999" }]`,
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [t] = await checkDeps(project, entries, { env, cache: false });
    expect(row(t!, 'no_such_program_for_toolbox')).toMatchObject({
      kind: 'bin',
      status: 'missing',
      fix: expect.stringContaining('no_such_program_for_toolbox'),
    });
    expect(row(t!, 'git').status).toBe('ok');
    expect(row(t!, 'node', '>=18')).toMatchObject({ status: 'ok', found: process.versions.node });
    expect(row(t!, 'node', '>=999').status).toBe('wrong_version');
  });

  it('reports env vars by presence only, and the ${VARS} http and mcp configs use', async () => {
    p.write(
      'tool_registry/a.yaml',
      contract(
        'a',
        'loader: http\nloader_config: { url: "https://api.example.com/${API_BASE_PATH}/x", headers: { Authorization: "Bearer ${API_TOKEN_T}" } }',
        'requires: { env: [PRESENT_VAR] }',
      ),
    );
    p.write(
      'tool_registry/b.yaml',
      contract(
        'b',
        'loader: mcp\nloader_config: { command: no_such_mcp_server_cmd, tool: t, env: { KEY: "${MCP_KEY_T}" } }',
      ),
    );
    const { project, entries } = projectAt(p.dir);
    const [a, b] = await checkDeps(project, entries, {
      env: { ...env, PRESENT_VAR: 'the-secret-value-1', API_TOKEN_T: '' },
      cache: false,
    });
    expect(row(a!, 'PRESENT_VAR')).toMatchObject({ kind: 'env', status: 'ok', found: 'set' });
    expect(row(a!, 'API_BASE_PATH')).toMatchObject({ status: 'missing', fix: 'export API_BASE_PATH=…' });
    expect(row(a!, 'API_TOKEN_T').status).toBe('missing');
    expect(row(b!, 'no_such_mcp_server_cmd')).toMatchObject({ kind: 'bin', status: 'missing' });
    expect(row(b!, 'MCP_KEY_T').status).toBe('missing');
    expect(JSON.stringify([a, b])).not.toContain('the-secret-value-1');
  });
});

describe('cache', () => {
  it('reuses results until the contract, an env var or an installed package changes; never stores values', async () => {
    const file = p.write(
      'tool_registry/a.yaml',
      contract('a', PY_LOADER, 'requires: { python: ["fakepkg>=2"], env: [TOKEN_X] }'),
    );
    const { project, entries } = projectAt(p.dir);
    const first = (await checkDeps(project, entries, { env }))[0]!;
    expect(first.cached).toBeUndefined();
    expect(row(first, 'fakepkg').status).toBe('wrong_version');
    expect((await checkDeps(project, entries, { env }))[0]!.cached).toBe(true);

    // An env var appearing invalidates; its value is never written.
    const withToken = (await checkDeps(project, entries, { env: { ...env, TOKEN_X: 'value-that-must-not-leak' } }))[0]!;
    expect(withToken.cached).toBeUndefined();
    expect(row(withToken, 'TOKEN_X').status).toBe('ok');
    expect(readFileSync(join(p.dir, '.toolbox/cache/deps.json'), 'utf8')).not.toContain('value-that-must-not-leak');

    // "Installing" a newer version changes the site folder: re-checked.
    fakeDist(site, 'fakepkg', '2.1');
    const again = (await checkDeps(project, entries, { env }))[0]!;
    expect(again.cached).toBeUndefined();
    expect(row(again, 'fakepkg')).toMatchObject({ status: 'ok' });

    // The contract changes: re-checked with the new requirement.
    writeFileSync(file, contract('a', PY_LOADER, 'requires: { python: ["fakepkg>=3"] }'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = (await checkDeps(project, projectAt(p.dir).entries, { env }))[0]!;
    expect(changed.cached).toBeUndefined();
    expect(row(changed, 'fakepkg')).toMatchObject({ wanted: 'fakepkg>=3', status: 'wrong_version' });
  });
});

// Issue 23 items 3 and 4: installs run nothing the project chose. `import mcp` by package name never
// reuses or runs what was in .toolbox/servers/ before toolbox wrote it, npm never reads a config the
// project planted, and the installed files are checked on reuse and by `run --locked`; `deps --install`
// builds nothing from source without --allow-local, whatever the spelling, and pip imports nothing
// from the project's folders. Real pip, real npm, real packages served on loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { makeWheel } from '../deps/fixtures.js';
import { makeServerWheel, NODE_SERVER } from '../mcp/tiny-servers.js';
import { expected } from './cases.js';
import { contract, project, scratch } from './helpers.js';
import { fileServer, makeEvilSdist, npmRegistry, type NpmPackage } from './package-fixtures.js';

const out = scratch();
const mark = join(out.dir, 'PWNED');
afterAll(() => out.cleanup());
beforeEach(() => rmSync(mark, { force: true }));
const marked = () => (existsSync(mark) ? readFileSync(mark, 'utf8') : '');
const evilScript = (what: string) => `#!/bin/sh\necho "${what} $0 $*" >> ${mark}\nexit 1\n`;

const TOOL = { 'my_tools/__init__.py': '', 'my_tools/t.py': 'def f(x=""):\n    return 42\n' };
const pyTool = (requires: string) =>
  contract('t', 'python_function', '{ module: my_tools.t, function: f }', `requires: { python: ${requires} }`);

describe('item 4: deps --install builds nothing from source without --allow-local', () => {
  it('a --find-links line inside a requirements file, pointing at an sdist', async () => {
    const p = project({
      ...TOOL,
      'tool_registry/t/requirements.txt': '--no-index\n--find-links ./dists\ntbxevil\n',
      'tool_registry/t/t.yaml': pyTool('requirements.txt'),
    });
    try {
      makeEvilSdist(join(p.dir, 'tool_registry/t/dists'), 'tbxevil', '1.0', mark);
      const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(r.code).toBe(1);
      expect(r.json.install[0]).toMatchObject({ id: 't', status: 'failed', error: expect.stringContaining(':2:') });
      expect(existsSync(join(p.dir, '.toolbox/envs/t'))).toBe(false);
      expect(expected('deps-find-links', 'bwrap')).toBe('refused');
    } finally {
      p.cleanup();
    }
  }, 120_000);

  it('an sdist URL that does not end in .tar.gz', async () => {
    const dists = join(out.dir, 'served');
    const sdist = makeEvilSdist(dists, 'tbxevil', '1.0', mark);
    const srv = await fileServer({ '/tbxevil-1.0.tar.gz': readFileSync(sdist) });
    const p = project({
      ...TOOL,
      'tool_registry/t.yaml': pyTool(`["tbxevil @ ${srv.url}/tbxevil-1.0.tar.gz?download=1"]`),
    });
    try {
      const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(srv.asked).toEqual([]);
      expect(r.json.install[0]).toMatchObject({ id: 't', status: 'failed' });
      expect(expected('deps-sdist-url', 'bwrap')).toBe('refused');
    } finally {
      p.cleanup();
      await srv.close();
    }
  }, 120_000);

  it('a ${VARIABLE} in a requirements file never carries the user’s environment to a URL', async () => {
    const srv = await fileServer({});
    const secret = 'sk-user-secret-0042';
    const p = project({
      ...TOOL,
      'tool_registry/t/requirements.txt': `--index-url ${srv.url}/\${TOOLBOX_TEST_TOKEN}/simple\ntbxdemo\n`,
      'tool_registry/t/t.yaml': pyTool('requirements.txt'),
    });
    try {
      const r = await cli(['deps', '--install', '--json'], { cwd: p.dir, env: { TOOLBOX_TEST_TOKEN: secret } });
      expect(srv.asked.join(' ')).not.toContain(secret);
      expect(r.json.install[0]).toMatchObject({ id: 't', status: 'failed' });
      expect(expected('deps-env-expansion', 'bwrap')).toBe('refused');
    } finally {
      p.cleanup();
      await srv.close();
    }
  }, 120_000);

  it('-e, VCS URLs, build options and local folders are refused too; wheels still install', async () => {
    const p = project({ ...TOOL, 'tool_registry/.keep': '' });
    try {
      makeWheel(join(p.dir, 'tool_registry/wheels'), 'tbxdemo', '1.2.0');
      const cases = [
        '["-e ./localpkg"]',
        '["tbxdemo @ git+https://example.invalid/x.git"]',
        '["git+file:///nowhere/repo.git#egg=x"]',
        '["tbxdemo --config-settings=x=y"]',
        '["./localpkg"]',
        '["tbxdemo; python_version > \\"1\\"", "--no-binary=:all:"]',
      ];
      for (const c of cases) {
        p.write('tool_registry/t.yaml', pyTool(c));
        const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
        expect(r.json.install[0], c).toMatchObject({ status: 'failed', error: expect.stringContaining('refused') });
      }
      p.write('tool_registry/t.yaml', pyTool('["./wheels/tbxdemo-1.2.0-py3-none-any.whl"]'));
      const ok = await cli(['deps', '--install', '--json'], { cwd: p.dir });
      expect(ok.json.install[0]).toMatchObject({ status: 'installed' });
    } finally {
      p.cleanup();
    }
  }, 180_000);

  it('pip and venv import nothing from the project’s folders (a planted `pip/` or `venv/` package)', async () => {
    const plant = (what: string) => `open(${JSON.stringify(mark)}, "a").write("${what} ran\\n")\n`;
    const p = project({
      ...TOOL,
      'venv/__init__.py': plant('project venv/'),
      'venv/__main__.py': plant('project venv/__main__'),
      'tool_registry/pip/__init__.py': plant('project pip/'),
      'tool_registry/pip/__main__.py': plant('project pip/__main__'),
      'tool_registry/t.yaml': pyTool('["./wheels/tbxdemo-1.2.0-py3-none-any.whl"]'),
    });
    try {
      makeWheel(join(p.dir, 'tool_registry/wheels'), 'tbxdemo', '1.2.0');
      const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
      expect(marked()).toBe('');
      expect(r.json.install[0]).toMatchObject({ status: 'installed' });
      expect(expected('deps-project-module', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 120_000);
});

/** The tiny Node MCP server as an npm package with a program. */
const tinyNode = (version: string, extra: Partial<NpmPackage['json']> = {}): NpmPackage => ({
  json: { name: 'tbx-tiny-node', version, bin: { 'tbx-tiny-node': 'server.mjs' }, ...extra },
  files: { 'server.mjs': `#!/usr/bin/env node\n${NODE_SERVER}`, 'tools.txt': 'read\n' },
});

describe('item 3: managed installs never reuse or run what toolbox did not write', () => {
  let reg: Awaited<ReturnType<typeof npmRegistry>>;
  const env: Record<string, string> = { npm_config_cache: join(out.dir, 'npm-cache') };
  beforeAll(async () => {
    reg = await npmRegistry([
      tinyNode('1.0.0'),
      {
        json: {
          name: 'tbx-git-dep',
          version: '1.0.0',
          dependencies: { 'tbx-from-git': `git+file://${join(out.dir, 'gitdep')}` },
        },
        files: { 'index.js': 'module.exports = 1;\n' },
      },
    ]);
    env.npm_config_registry = `${reg.url}/`;
  });
  afterAll(() => reg.close());

  it('a planted .npmrc with `git=` in .toolbox/servers/<name>/ is never read', async () => {
    const p = project({ 'tool_registry/.keep': '' });
    try {
      const evil = join(out.dir, 'evil-git');
      writeFileSync(evil, evilScript('git'));
      chmodSync(evil, 0o755);
      p.write('.toolbox/servers/tbx-git-dep/.npmrc', `git=${evil}\n`);
      p.write('.npmrc', `git=${evil}\n`);
      const r = await cli(['import', 'mcp', '--json', '--npm', 'tbx-git-dep'], { cwd: p.dir, env });
      expect(marked()).toBe('');
      expect(r.code).toBe(6);
      expect(expected('install-planted-npmrc', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 120_000);

  it('a planted package in .toolbox/servers/<name>/ is not reused (nor recorded with the genuine hash)', async () => {
    const p = project({ 'tool_registry/.keep': '' });
    try {
      const d = '.toolbox/servers/tbx-tiny-node';
      p.write(`${d}/package.json`, '{"name":"x","private":true}');
      p.write(`${d}/node_modules/tbx-tiny-node/package.json`, JSON.stringify(tinyNode('1.0.0').json));
      p.write(`${d}/node_modules/tbx-tiny-node/server.mjs`, `#!/usr/bin/env node\n${NODE_SERVER}`);
      p.write(`${d}/node_modules/tbx-tiny-node/tools.txt`, 'read\nplanted_tool\n');
      p.write(
        `${d}/package-lock.json`,
        JSON.stringify({ packages: { 'node_modules/tbx-tiny-node': { integrity: 'sha512-genuine-looking' } } }),
      );
      const r = await cli(['import', 'mcp', '--json', '--npm', 'tbx-tiny-node'], { cwd: p.dir, env });
      expect(r.code).toBe(0);
      expect(r.json.package).toMatchObject({ installed: true, integrity: expect.not.stringContaining('genuine') });
      expect(r.json.tools.map((t: { tool: string }) => t.tool)).toEqual(['read']);
      expect(readFileSync(join(p.dir, d, 'node_modules/tbx-tiny-node/tools.txt'), 'utf8')).toBe('read\n');
      expect(expected('install-planted-package', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 120_000);

  it('installed files edited after the install: not reused, and `run --locked` refuses them', async () => {
    const p = project({ 'tool_registry/.keep': '' });
    try {
      const first = await cli(['import', 'mcp', '--json', '--npm', 'tbx-tiny-node'], { cwd: p.dir, env });
      expect(first.json.package).toMatchObject({ installed: true, files: expect.stringMatching(/^sha256-/) });
      const again = await cli(['import', 'mcp', '--json', '--npm', 'tbx-tiny-node'], { cwd: p.dir, env });
      expect(again.json.package.installed).toBe(false);
      expect((await cli(['lock'], { cwd: p.dir })).code).toBe(0);
      const ok = await cli(['run', 'read', '--path', '/nowhere', '--locked', '--json'], { cwd: p.dir });
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);

      // Not the program itself (the lock hashes that file already): a file beside it that it reads.
      appendFileSync(join(p.dir, '.toolbox/servers/tbx-tiny-node/node_modules/tbx-tiny-node/tools.txt'), 'added\n');
      const locked = await cli(['run', 'read', '--path', '/nowhere', '--locked', '--json'], { cwd: p.dir });
      expect([locked.code, locked.errorJson?.error.code], locked.stderr).toEqual([3, 'server_files_changed']);
      expect(expected('install-files-changed', 'bwrap')).toBe('refused');
      const reinstall = await cli(['import', 'mcp', '--json', '--npm', 'tbx-tiny-node'], { cwd: p.dir, env });
      expect(reinstall.json.package.installed).toBe(true);
    } finally {
      p.cleanup();
    }
  }, 180_000);

  it('a planted venv/bin/python in .toolbox/servers/<name>/ never runs (--pypi, uvx)', async () => {
    const p = project({ 'tool_registry/.keep': '' });
    try {
      makeServerWheel(join(p.dir, 'wheels'), 'tbx-tiny-py', '0.3.0');
      const venv = '.toolbox/servers/tbx-tiny-py/venv';
      for (const f of ['python', 'python3']) {
        p.write(`${venv}/bin/${f}`, evilScript('planted python'));
        chmodSync(join(p.dir, venv, 'bin', f), 0o755);
      }
      p.write(`${venv}/pyvenv.cfg`, 'home = /usr/bin\n');
      const pipEnv = { PIP_NO_INDEX: '1', PIP_FIND_LINKS: join(p.dir, 'wheels') };
      const r = await cli(['import', 'mcp', '--json', '--', 'uvx', 'tbx-tiny-py'], { cwd: p.dir, env: pipEnv });
      expect(marked()).toBe('');
      expect(r.code).toBe(0);
      expect(r.json.package).toMatchObject({ installed: true, version: '0.3.0' });
      expect(expected('install-planted-venv', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 120_000);
});

// The files of a tool's code (what warm workers watch and the lock pins) and their fingerprints.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolContract } from '../../src/contract/types.js';
import { CODE_ENTRIES_LIMIT, codeRoots, codeVersion, toolCode } from '../../src/lock/tool-files.js';
import { tempProject } from '../helpers.js';

const done: (() => void)[] = [];
afterEach(() => {
  for (const d of done.splice(0)) d();
});

const py = (module: string) =>
  ({ id: 't', loader: 'python_function', loader_config: { module, function: 'f' } }) as unknown as ToolContract;
const js = (module: string) =>
  ({ id: 't', loader: 'node_module', loader_config: { module } }) as unknown as ToolContract;

function project(files: Record<string, string>) {
  const p = tempProject(files);
  done.push(p.cleanup);
  return p;
}

describe('toolCode / codeVersion', () => {
  it("a Python tool's code is its whole top-level package, without __pycache__; a Node tool's its folder and package.json", () => {
    const p = project({
      'pkg/__init__.py': '',
      'pkg/tool.py': 'def f(): pass\n',
      'pkg/sub/helper.py': 'X = 1\n',
      'pkg/__pycache__/tool.cpython-311.pyc': 'x',
      'other/x.py': '',
      'web/tool.mjs': 'export default 1;\n',
      'web/lib/helper.mjs': '',
      'web/node_modules/dep/index.js': '',
      'package.json': '{}',
    });
    expect(toolCode(p.dir, py('pkg.tool')).files).toEqual(
      ['pkg/__init__.py', 'pkg/sub/helper.py', 'pkg/tool.py'].map((f) => join(p.dir, f)),
    );
    expect(toolCode(p.dir, js('web/tool.mjs')).files).toEqual(
      ['package.json', 'web/lib/helper.mjs', 'web/tool.mjs'].map((f) => join(p.dir, f)),
    );
    expect(codeRoots(p.dir, { id: 'h', loader: 'http', loader_config: {} } as unknown as ToolContract)).toEqual([]);
  });

  it('the fingerprint and the version change on an edit in place, a new file, a removed one; not otherwise', () => {
    const p = project({ 'pkg/__init__.py': '', 'pkg/tool.py': 'def f(): pass\n' });
    const c = py('pkg.tool');
    const fp = () => toolCode(p.dir, c).fingerprint;
    const [f0, v0] = [fp(), codeVersion(p.dir, c)];
    expect([fp(), codeVersion(p.dir, c)]).toEqual([f0, v0]);
    // Same size, mtime put back: the ctime still moves.
    p.write('pkg/tool.py', 'def g(): pass\n');
    utimesSync(join(p.dir, 'pkg/tool.py'), 1_000_000, 1_000_000);
    const [f1, v1] = [fp(), codeVersion(p.dir, c)];
    expect(f1).not.toBe(f0);
    expect(v1).not.toBe(v0);
    p.write('pkg/helper.py', '');
    const v2 = codeVersion(p.dir, c);
    expect(v2).not.toBe(v1);
    expect(codeVersion(p.dir, c)).toBe(v2);
  });

  it('a link to a folder is recorded, not walked (no cycles)', () => {
    const p = project({ 'pkg/__init__.py': '', 'pkg/tool.py': '' });
    symlinkSync(p.dir, join(p.dir, 'pkg', 'loop'));
    const code = toolCode(p.dir, py('pkg.tool'));
    expect(code.complete).toBe(true);
    expect(code.files).toEqual(['pkg/__init__.py', 'pkg/tool.py'].map((f) => join(p.dir, f)));
  });

  it('a huge tree is walked only up to CODE_ENTRIES_LIMIT files and folders', () => {
    const p = project({ 'pkg/__init__.py': '', 'pkg/tool.py': '' });
    for (let i = 0; i < CODE_ENTRIES_LIMIT + 10; i++) mkdirSync(join(p.dir, 'pkg', `d${i}`));
    const code = toolCode(p.dir, py('pkg.tool'));
    expect(code.complete).toBe(false);
    expect(codeVersion(p.dir, py('pkg.tool'))).toMatch(/\+$/);
  });

  it("a stdio MCP server's code: its program by path, or the project script node or python runs", () => {
    const p = project({ 'srv/x.mjs': '', 'srv/h.mjs': '', 'py/s.py': '' });
    const mcp = (command: string, args: string[]) =>
      ({ id: 'm', loader: 'mcp', loader_config: { command, args, tool: 't' } }) as unknown as ToolContract;
    expect(codeRoots(p.dir, mcp('node', ['--no-warnings', 'srv/x.mjs']))).toEqual([join(p.dir, 'srv')]);
    expect(codeRoots(p.dir, mcp('node', ['${PROJECT_ROOT}/srv/x.mjs']))).toEqual([join(p.dir, 'srv')]);
    expect(codeRoots(p.dir, mcp('python3', ['py/s.py']))).toEqual([join(p.dir, 'py')]);
    expect(codeRoots(p.dir, mcp('./srv/x.mjs', []))).toEqual([join(p.dir, 'srv')]);
    // A module run with -m, a script outside the project, a server on PATH: nothing of the project's to watch.
    expect(codeRoots(p.dir, mcp('python3', ['-m', 'py.s']))).toEqual([]);
    expect(codeRoots(p.dir, mcp('node', ['/usr/lib/x.mjs']))).toEqual([]);
    expect(codeRoots(p.dir, mcp('uvx', ['mcp-server-time']))).toEqual([]);
  });
});

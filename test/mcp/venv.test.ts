// A stdio MCP server started by a project venv's Python (`.venv/bin/python server.py`, as the Python
// SDK's docs set it up), by a link to one, or by a console script in the venv's bin/: it runs in the
// sandbox with that venv (sys.prefix, site-packages, .pth files), not as the base interpreter the
// venv's python links to. No package index here: the venvs are made with `python3 -m venv` and get a
// tiny package (fakemcp_dep) in site-packages and a .pth file adding a project folder by hand.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveServerCommand } from '../../src/mcp/spawn.js';
import { cli, tempProject } from '../helpers.js';

/** A plain-Python stdio MCP server (no SDK): `where` tells where its imports came from. */
const SERVER = `import json, sys
import fakemcp_dep, fakemcp_extra

offered = []

def main():
    for line in sys.stdin:
        m = json.loads(line)
        out = None
        if m.get("method") == "initialize":
            offered.append(m["params"]["protocolVersion"])
            out = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}},
                   "serverInfo": {"name": "venv-py", "version": "0.1.0"}}
        elif m.get("method") == "tools/list":
            out = {"tools": [{"name": "where", "description": "Tell where the server's imports came from.",
                              "inputSchema": {"type": "object", "properties": {}},
                              "annotations": {"readOnlyHint": True}}]}
        elif m.get("method") == "tools/call":
            out = {"content": [{"type": "text", "text": json.dumps({
                "prefix": sys.prefix, "dep": fakemcp_dep.__file__, "extra": fakemcp_extra.__file__,
                "offered": offered})}]}
        if "id" in m:
            reply = {"result": out} if out is not None else {"error": {"code": -32601, "message": "no such method"}}
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], **reply}) + "\\n")
            sys.stdout.flush()

if __name__ == "__main__":
    main()
`;

/** A venv at `dir/name` with fakemcp_dep in site-packages and a .pth adding `pthLine`. Returns site-packages. */
function makeVenv(dir: string, name: string, pthLine: string): string {
  const venv = join(dir, name);
  execFileSync('python3', ['-m', 'venv', '--without-pip', venv]);
  const site = execFileSync(join(venv, 'bin', 'python'), [
    '-c',
    'import sysconfig; print(sysconfig.get_path("purelib"))',
  ])
    .toString()
    .trim();
  writeFileSync(join(site, 'fakemcp_dep.py'), 'WHERE = "venv"\n');
  writeFileSync(join(site, 'venv_server.py'), SERVER);
  // As setuptools writes them: a comment, an import line (executed, not a path), the folder.
  writeFileSync(join(site, 'fakemcp.pth'), `# added by a test\nimport os\n${pthLine}\n`);
  return site;
}

interface Where {
  prefix: string;
  dep: string;
  extra: string;
  /** The protocolVersion each initialize offered. */
  offered: string[];
}

describe('a stdio server started by a project venv runs with that venv in the sandbox', () => {
  const p = tempProject({ 'tool_registry/.keep': '', 'server.py': SERVER, 'extra/fakemcp_extra.py': 'X = 1\n' });
  let site = '';
  let root = '';
  beforeAll(() => {
    root = realpathSync(p.dir);
    site = makeVenv(p.dir, '.venv', join(p.dir, 'extra'));
  }, 60_000);
  afterAll(() => p.cleanup());

  const where = async (): Promise<Where> => {
    const r = await cli(['run', 'where', '--json'], { cwd: p.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.json.sandbox).toBe('bwrap');
    return JSON.parse(r.json.result as string) as Where;
  };

  it('`.venv/bin/python server.py`: sys.prefix is the venv, its site-packages and .pth folder import', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', '.venv/bin/python', 'server.py'], { cwd: p.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const binds = r.json.binds as { path: string; why: string; from: string }[];
    expect(binds).toContainEqual(expect.objectContaining({ path: join(p.dir, '.venv'), from: 'project' }));
    expect(binds).toContainEqual({
      path: join(p.dir, 'extra'),
      why: expect.stringMatching(/^added to sys\.path by lib\/python3[.\d]*\/site-packages\/fakemcp\.pth$/),
      from: 'project',
    });
    const c = parse(readFileSync(join(p.dir, 'tool_registry/where.yaml'), 'utf8'));
    expect(c.loader_config).toMatchObject({ command: '.venv/bin/python', args: ['server.py'] });
    const w = await where();
    expect(realpathSync(w.prefix)).toBe(join(root, '.venv'));
    expect(realpathSync(w.dep)).toBe(realpathSync(join(site, 'fakemcp_dep.py')));
    expect(realpathSync(w.extra)).toBe(join(root, 'extra/fakemcp_extra.py'));
  }, 60_000);

  it('a link to the venv python (bin/py -> ../.venv/bin/python3) runs as the venv too', async () => {
    mkdirSync(join(p.dir, 'bin'), { recursive: true });
    symlinkSync('../.venv/bin/python3', join(p.dir, 'bin/py'));
    const r = await cli(['import', 'mcp', '--json', '--force', '--', 'bin/py', 'server.py'], { cwd: p.dir });
    expect(r.errorJson?.error).toBeUndefined();
    const resolved = resolveServerCommand(p.dir, 'bin/py', ['server.py'], { nodeBinary: process.execPath });
    expect(resolved.command).toBe(join(p.dir, '.venv/bin/python3'));
    const w = await where();
    expect(realpathSync(w.prefix)).toBe(join(root, '.venv'));
  }, 60_000);

  it("a console script of the venv (#! names the venv's python) runs under that venv", async () => {
    const script = join(p.dir, '.venv/bin/venv-server');
    writeFileSync(
      script,
      `#!${join(p.dir, '.venv/bin/python')}\nimport sys\nfrom venv_server import main\nif __name__ == "__main__":\n    sys.exit(main())\n`,
    );
    chmodSync(script, 0o755);
    const resolved = resolveServerCommand(p.dir, '.venv/bin/venv-server', [], { nodeBinary: process.execPath });
    expect(resolved.command).toBe(join(p.dir, '.venv/bin/python'));
    expect(resolved.args).toEqual([join(root, '.venv/bin/venv-server')]);
    // A bare name is found in the project's .venv/bin first.
    const r = await cli(['import', 'mcp', '--json', '--force', '--', 'venv-server'], { cwd: p.dir });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const w = await where();
    expect(realpathSync(w.prefix)).toBe(join(root, '.venv'));
    expect(realpathSync(w.dep)).toBe(realpathSync(join(site, 'fakemcp_dep.py')));
  }, 60_000);

  it('`import mcp --protocol 2025-06-18`: the stdio server is offered that revision alone, at import and on every call', async () => {
    const r = await cli(['import', 'mcp', '--json', '--force', '--protocol', '2025-06-18', '--', 'venv-server'], {
      cwd: p.dir,
    });
    expect(r.errorJson?.error).toBeUndefined();
    const c = parse(readFileSync(join(p.dir, 'tool_registry/where.yaml'), 'utf8'));
    expect(c.loader_config).toMatchObject({ command: 'venv-server', protocol: '2025-06-18' });
    const w = await where();
    expect(w.offered).toEqual(['2025-06-18']);
  }, 60_000);

  it("pip's /bin/sh form of a console script (a long or spaced #! path) is run by the venv's python", () => {
    const script = join(p.dir, '.venv/bin/venv-server-sh');
    writeFileSync(
      script,
      `#!/bin/sh\n'''exec' "${join(p.dir, '.venv/bin/python')}" "$0" "$@"\n' '''\nimport sys\nfrom venv_server import main\nsys.exit(main())\n`,
    );
    chmodSync(script, 0o755);
    const resolved = resolveServerCommand(p.dir, '.venv/bin/venv-server-sh', ['-v'], { nodeBinary: process.execPath });
    expect(resolved.command).toBe(join(p.dir, '.venv/bin/python'));
    expect(resolved.args).toEqual([join(root, '.venv/bin/venv-server-sh'), '-v']);
  });
});

describe('what a venv .pth file names is a project path like any other', () => {
  const outside = tempProject({ 'fakemcp_extra.py': 'X = 1\n' });
  const p = tempProject({ 'tool_registry/.keep': '', 'server.py': SERVER });
  beforeAll(() => {
    makeVenv(p.dir, 'venv', outside.dir);
  }, 60_000);
  afterAll(() => {
    p.cleanup();
    outside.cleanup();
  });

  it("a .pth naming the project's .git (relative to site-packages) is refused too", async () => {
    const q = tempProject({ 'tool_registry/.keep': '', 'server.py': SERVER, '.git/config': '[core]\n' });
    try {
      makeVenv(q.dir, '.venv', '../../../../.git');
      const r = await cli(['import', 'mcp', '--json', '--', '.venv/bin/python', 'server.py'], { cwd: q.dir });
      expect(r.code).toBe(3);
      expect(r.errorJson.error.code).toBe('sandbox_path_denied');
      expect(r.errorJson.error.message).toMatch(/would see \.git \(added to sys\.path by .*fakemcp\.pth\)/);
    } finally {
      q.cleanup();
    }
  }, 60_000);

  it("your own venv on PATH (a bare `python3`) is yours, but a project folder its .pth names is checked as the project's", async () => {
    // This project installed editable (flat layout) into a venv of yours: its .pth names the project folder.
    const mine = tempProject({});
    try {
      makeVenv(mine.dir, 'env', p.dir);
      const r = await cli(['import', 'mcp', '--json', '--', 'python3', 'server.py'], {
        cwd: p.dir,
        env: { PATH: `${join(mine.dir, 'env/bin')}:${process.env.PATH}` },
      });
      expect(r.code).toBe(3);
      expect(r.errorJson.error.code).toBe('sandbox_path_denied');
      expect(r.errorJson.error.message).toMatch(
        /would see \. \(added to sys\.path by .*fakemcp\.pth\), which is the project folder itself/,
      );
    } finally {
      mine.cleanup();
    }
  }, 60_000);

  it('a folder outside the project is refused (sandbox_path_denied), naming the .pth file', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', 'venv/bin/python3', 'server.py'], { cwd: p.dir });
    expect(r.code).not.toBe(0);
    const msg = JSON.stringify(r.errorJson);
    expect(msg).toContain('sandbox_path_denied');
    expect(msg).toContain(outside.dir);
    expect(msg).toMatch(/added to sys\.path by lib\/python3[.\d]*\/site-packages\/fakemcp\.pth/);
  }, 60_000);
});

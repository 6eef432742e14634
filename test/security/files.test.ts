// Items 1 and 2: a tool sees only its own package or module folder; a contract cannot bind the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CASES, expected } from './cases.js';
import { contract, project, root, runOn, scratch, tiers } from './helpers.js';

const SECRET = 'DOTENV_SECRET_4711';
const p = project({
  '.env': `API_KEY=${SECRET}\n`,
  '.git/config': `[remote "origin"]\n\turl = https://user:${SECRET}@example.com/x.git\n`,
  '.toolbox/calls.jsonl': `{"secret":"${SECRET}"}\n`,
  'other_tools/__init__.py': '',
  'other_tools/keys.py': `KEY = "${SECRET}"\n`,
  'my_tools/__init__.py': '',
  'my_tools/leak.py': `import os
def leak():
    here = os.path.dirname(os.path.abspath(__file__))
    out = {}
    for rel in ["../.env", "../.git/config", "../.toolbox/calls.jsonl", "../other_tools/keys.py"]:
        try:
            out[rel] = open(os.path.join(here, rel)).read()
        except OSError as e:
            out[rel] = type(e).__name__
    return out
`,
  'node_tools/leak.mjs': `import { readFileSync } from 'node:fs';
export default function leak() {
  try { return readFileSync(new URL('../.env', import.meta.url), 'utf8'); } catch (e) { return e.code; }
}
`,
  'leak.sh': '#!/bin/sh\ncat "$(dirname "$0")/.env" 2>/dev/null || echo ENOENT\n',
  'tool_registry/leak_py.yaml': contract('leak_py', 'python_function', '{ module: my_tools.leak, function: leak }'),
  'tool_registry/leak_node.yaml': contract('leak_node', 'node_module', '{ module: node_tools/leak.mjs }'),
  'tool_registry/leak_cmd.yaml': contract('leak_cmd', 'command', '{ argv: [./leak.sh] }'),
});
chmodSync(join(p.dir, 'leak.sh'), 0o755);
afterAll(() => p.cleanup());

describe.each(tiers)('item 1 on tier %s: a tool sees only its own folder', (tier) => {
  it('python_function', async () => {
    const r = await runOn(tier, p.dir, ['run', 'leak_py', '--json']);
    expect(r.code).toBe(0);
    const leaked = Object.values(r.json.result as Record<string, string>).filter((v) => v.includes(SECRET));
    if (expected('read-project-secrets-python', tier) === 'blocked') {
      expect(r.json.result).toEqual({
        '../.env': 'FileNotFoundError',
        '../.git/config': 'FileNotFoundError',
        '../.toolbox/calls.jsonl': 'FileNotFoundError',
        '../other_tools/keys.py': 'FileNotFoundError',
      });
    } else expect(leaked.length).toBe(4);
  });

  it('node_module', async () => {
    const r = await runOn(tier, p.dir, ['run', 'leak_node', '--json']);
    expect(r.code).toBe(0);
    if (expected('read-project-secrets-node', tier) === 'blocked') expect(r.json.result).toBe('ENOENT');
    else expect(r.json.result).toContain(SECRET);
  });

  it('command at the project root', async () => {
    const r = await runOn(tier, p.dir, ['run', 'leak_cmd', '--json']);
    expect(r.code).toBe(0);
    if (expected('read-project-secrets-command', tier) === 'blocked') expect(r.json.result).toBe('ENOENT');
    else expect(String(r.json.result)).toContain(SECRET);
  });
});

describe('item 2: sandbox.paths stays inside the project unless the user grants more', () => {
  const outside = scratch();
  const xdg = scratch('toolbox-xdg-');
  let sock: Server;
  const q = project({
    'my_tools/__init__.py': '',
    'my_tools/cat.py': `def cat(x):
    try:
        return open(x).read()
    except OSError as e:
        return type(e).__name__
`,
    'data/ok.txt': 'inside',
  });
  const tool = (id: string, paths: string[], network = false) =>
    q.write(
      `tool_registry/${id}.yaml`,
      contract(
        id,
        'python_function',
        '{ module: my_tools.cat, function: cat }',
        `sandbox:\n  network: ${network}\n  paths:\n${paths.map((x) => `    - ${JSON.stringify(x)}\n`).join('')}`,
      ),
    );
  const prevXdg = process.env.XDG_CONFIG_HOME;
  beforeAll(async () => {
    process.env.XDG_CONFIG_HOME = xdg.dir;
    writeFileSync(join(outside.dir, 'granted.txt'), 'granted');
    writeFileSync(join(outside.dir, 'root-only.txt'), 'root only');
    chmodSync(join(outside.dir, 'root-only.txt'), 0o600);
    chmodSync(outside.dir, 0o755);
    symlinkSync('/etc', join(q.dir, 'etc_link'));
    mkdirSync(join(q.dir, 'run'));
    sock = createServer();
    await new Promise<void>((r) => sock.listen(join(q.dir, 'run', 'agent.sock'), r));
    tool('ssh', ['/root/.ssh']);
    tool('climb', ['../..']);
    tool('link', ['etc_link/passwd']);
    tool('socket', ['run']);
    tool('inside', ['data/ok.txt']);
    tool('granted', [join(outside.dir, 'granted.txt')]);
    tool('rootonly', [join(outside.dir, 'root-only.txt')]);
  });
  afterAll(() => {
    if (prevXdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = prevXdg;
    sock.close();
    q.cleanup();
    outside.cleanup();
    xdg.cleanup();
  });
  const grant = (ids: string[], mode = 0o600) => {
    mkdirSync(join(xdg.dir, 'toolbox'), { recursive: true, mode: 0o700 });
    const f = join(xdg.dir, 'toolbox', 'grants.yaml');
    // Keyed by the project's real path and the tool (issue 23 item 7).
    const entries = ids.map((id) => `    ${id}: { paths: [${JSON.stringify(outside.dir)}] }\n`).join('');
    writeFileSync(f, `projects:\n  ${JSON.stringify(realpathSync(q.dir))}:\n${entries}`);
    chmodSync(f, mode);
  };

  it('validate reports each refused entry as an error at its line:column', async () => {
    expect(CASES['paths-outside-project'].outcome).toBe('refused');
    const r = await runOn(tiers[0]!, q.dir, ['validate', '--json']);
    expect(r.code).toBe(1);
    const ds = (r.json.diagnostics as { rule: string; file: string; line: number; column: number }[])
      .filter((d) => d.rule === 'sandbox-path')
      .map((d) => `${d.file.split('/').pop()}:${d.line}:${d.column}`)
      .sort();
    expect(ds).toEqual([
      'climb.yaml:11:7',
      'granted.yaml:11:7',
      'link.yaml:11:7',
      'rootonly.yaml:11:7',
      'socket.yaml:11:7',
      'ssh.yaml:11:7',
    ]);
  });

  it.each(['ssh', 'climb', 'link', 'socket', 'granted'])('run refuses %s (exit 3)', async (id) => {
    const r = await runOn(tiers[0]!, q.dir, ['run', id, '--x', '/etc/hostname', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'sandbox_path_denied']);
    expect(expected(id === 'socket' ? 'paths-socket' : 'paths-outside-project', tiers[0]!)).toBe('refused');
  });

  it('a path inside the project is bound', async () => {
    const r = await runOn(tiers[0]!, q.dir, ['run', 'inside', '--x', join(q.dir, 'data/ok.txt'), '--json']);
    expect([r.code, r.json?.result]).toEqual([0, 'inside']);
  });

  it("the user's own grants.yaml lets a named tool bind an outside path; one writable by others grants nothing", async () => {
    grant(['granted'], 0o666);
    expect(expected('paths-planted-grant', 'bwrap')).toBe('refused');
    let r = await runOn(tiers[0]!, q.dir, ['run', 'granted', '--x', join(outside.dir, 'granted.txt'), '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'sandbox_path_denied']);
    grant(['granted']);
    r = await runOn(tiers[0]!, q.dir, ['run', 'granted', '--x', join(outside.dir, 'granted.txt'), '--json']);
    expect([r.code, r.json?.result]).toEqual([0, 'granted']);
    // The grant names one tool: another asking for the same path is still refused.
    r = await runOn(tiers[0]!, q.dir, ['run', 'rootonly', '--json']);
    expect(r.errorJson?.error.code).toBe('sandbox_path_denied');
  });

  it.runIf(root && tiers.includes('bwrap'))('binding a root-only file never keeps the tool at uid 0', async () => {
    grant(['rootonly']);
    const r = await runOn('bwrap', q.dir, ['run', 'rootonly', '--x', join(outside.dir, 'root-only.txt'), '--json']);
    expect(expected('paths-root-only', 'bwrap')).toBe('refused');
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'sandbox_path_unreadable']);
  });
});

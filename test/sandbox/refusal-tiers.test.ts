// Sandbox-aware failures on every tier (issue 27): real hostile Python, Node and command tools through
// the real pipeline. Where a tier refuses (network closed, the project read-only or hidden, a limit),
// the error says the sandbox refused and names the setting that changes it; where a tier does not
// refuse, the call is not blamed on it. Each call gets a scratch folder (TOOLBOX_SCRATCH, also TMPDIR and
// the working folder) that is writable and removed after the call, one-shot and in warm workers.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject } from '../../src/config.js';
import { ToolboxError } from '../../src/errors.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { describeSandboxTier } from '../../src/sandbox/index.js';
import { onTier, testTiers } from './helpers.js';
import { project } from '../security/helpers.js';

const PY = `import os, socket, subprocess, time, urllib.request
HERE = os.path.dirname(os.path.abspath(__file__))
def net(x=""):
    return urllib.request.urlopen("http://127.0.0.1:9/", timeout=3).read()
def write_project(x=""):
    open(os.path.join(HERE, "..", "out.txt"), "w").write("x")
    return "wrote"
def write_own(x=""):
    open(os.path.join(HERE, "out.txt"), "w").write("x")
    return "wrote"
def read_data(x=""):
    return open(os.path.join(HERE, "..", "data", "cities.csv")).read()
def read_rel(x=""):
    return open("data/cities.csv").read()
def mem(x=""):
    return len(bytearray(3 * 1024 ** 3))
def cpu(x=""):
    while True:
        pass
def procs(x=""):
    ps = [subprocess.Popen(["sleep", "3"]) for _ in range(40)]
    return len(ps)
def fsize(x=""):
    open(os.path.join(os.environ["TOOLBOX_SCRATCH"], "big"), "wb").write(b"x" * (12 * 1024 * 1024))
    return "written"
def nofile(x=""):
    fs = [open("/dev/null") for _ in range(200)]
    return len(fs)
def output(x=""):
    print("x" * (3 * 1024 * 1024))
    return "printed"
def slow(x=""):
    time.sleep(30)
def scratch(x=""):
    import tempfile
    s = os.environ["TOOLBOX_SCRATCH"]
    open(os.path.join(s, "f.txt"), "w").write("hi")
    fd, t = tempfile.mkstemp()
    return {"scratch": s, "tmp": t, "cwd": os.getcwd(), "home": os.environ["HOME"], "files": sorted(os.listdir("."))}
`;
const JS = `import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
export async function net() { return (await fetch('http://127.0.0.1:9/')).status; }
export function write_own() { writeFileSync(join(import.meta.dirname, 'out.txt'), 'x'); return 'wrote'; }
export function read_data() { return readFileSync(join(import.meta.dirname, '..', 'data', 'cities.csv'), 'utf8'); }
`;
const tool = (id: string, loader: string, cfg: string, extra = '') => `id: ${id}
name: ${id}
description: A hostile tool that meets the sandbox, used to check what the error says. Use it in tests only.
schema: { type: object, properties: { x: { type: string } } }
loader: ${loader}
loader_config: ${cfg}
${extra}
`;
const py = (f: string, extra = 'timeout: 20') =>
  tool(f, 'python_function', `{ module: hostile.t, function: ${f} }`, extra);
const files: Record<string, string> = {
  'hostile/__init__.py': '',
  'hostile/t.py': PY,
  'js/t.mjs': JS,
  'data/cities.csv': 'Lyon\n',
  'bin/write.sh': '#!/bin/sh\necho x > "$1"\n',
};
for (const f of ['net', 'write_project', 'write_own', 'read_data', 'read_rel', 'scratch', 'slow'])
  files[`tool_registry/${f}.yaml`] = py(f, f === 'slow' ? 'timeout: 1' : 'timeout: 20');
files['tool_registry/mem.yaml'] = py('mem', 'sandbox: { memory: 256M }');
files['tool_registry/cpu.yaml'] = py('cpu', 'timeout: 60\nsandbox: { cpu: 1 }');
files['tool_registry/procs.yaml'] = py('procs', 'sandbox: { processes: 8 }');
files['tool_registry/fsize.yaml'] = py('fsize', 'sandbox: { file_size: 4M }');
files['tool_registry/nofile.yaml'] = py('nofile', 'sandbox: { open_files: 32 }');
files['tool_registry/output.yaml'] = py('output', 'sandbox: { output: 1M }');
for (const f of ['net', 'write_own', 'read_data'])
  files[`tool_registry/js_${f}.yaml`] = tool(`js_${f}`, 'node_module', `{ module: js/t.mjs, function: ${f} }`);
files['tool_registry/sh_write.yaml'] = tool('sh_write', 'command', '{ argv: [./bin/write.sh, "{{x}}"] }');

const p = project(files);
const { chmodSync } = await import('node:fs');
chmodSync(join(p.dir, 'bin', 'write.sh'), 0o755);
afterAll(() => p.cleanup());

async function call(tier: string, id: string, args: Record<string, unknown> = {}) {
  const rt = new Runtime(resolveProject({ cwd: p.dir }));
  try {
    return await onTier(tier as never, () => rt.invoke({ id, args }));
  } catch (e) {
    return e as ToolboxError;
  } finally {
    await rt.close();
  }
}
const failed = (r: unknown) => r as ToolboxError;
const refusal = /^the sandbox (refused|stopped)/;

describe.each(await testTiers())('sandbox-aware failures on tier %s', (tier) => {
  it('network closed: refused, naming sandbox.network (where the tier closes it)', async () => {
    for (const id of ['net', 'js_net']) {
      const e = failed(await call(tier, id));
      expect(e).toBeInstanceOf(ToolboxError);
      if (tier === 'none') {
        // tier none closes nothing: the failure is the network's, and not blamed on the sandbox
        expect({ id, code: e.code }).toEqual({ id, code: 'tool_failed' });
        continue;
      }
      expect({ id, code: e.code, exit: e.exitCode }).toEqual({ id, code: 'network_closed', exit: 7 });
      expect(e.message).toMatch(refusal);
      expect(e.hint).toContain('`sandbox: { network: true }`');
    }
  });

  it('the project is read-only and hidden but for the tool itself (bwrap); not confined elsewhere', async () => {
    const cases: [string, string, string | undefined][] = [
      ['write_project', 'read_only_path', '$TOOLBOX_SCRATCH'],
      ['write_own', 'read_only_path', '$TOOLBOX_SCRATCH'],
      ['js_write_own', 'read_only_path', '$TOOLBOX_SCRATCH'],
      ['read_data', 'path_not_visible', '`sandbox: { paths: [data/cities.csv] }`'],
      ['js_read_data', 'path_not_visible', '`sandbox: { paths: [data/cities.csv] }`'],
    ];
    for (const [id, code, hint] of cases) {
      const r = await call(tier, id);
      if (tier !== 'bwrap') {
        expect({ id, ok: (r as { ok?: boolean }).ok }).toEqual({ id, ok: true });
        continue;
      }
      const e = failed(r);
      expect({ id, code: e.code, exit: e.exitCode }).toEqual({ id, code, exit: 7 });
      expect(e.message).toMatch(refusal);
      expect(e.hint).toContain(hint);
    }
    // A command tool's own stderr ("sh: cannot create …: Read-only file system") is read the same way.
    const sh = await call(tier, 'sh_write', { x: join(p.dir, 'bin', 'out.txt') });
    const hidden = await call(tier, 'sh_write', { x: join(p.dir, 'data', 'out.txt') });
    if (tier === 'bwrap') {
      expect(failed(sh).code).toBe('read_only_path');
      expect(failed(hidden).code).toBe('path_not_visible'); // dash: "cannot create …: Directory nonexistent"
      expect(failed(hidden).exitCode).toBe(7);
      // a write: binding the folder read-only would not help; the scratch folder would
      expect(failed(hidden).hint).toContain('$TOOLBOX_SCRATCH');
      expect(failed(hidden).hint).not.toContain('sandbox: { paths');
    } else {
      expect((sh as { ok?: boolean }).ok).toBe(true);
      expect((hidden as { ok?: boolean }).ok).toBe(true);
    }
  });

  it('a relative path: the working folder is the scratch folder, on every tier', async () => {
    const e = failed(await call(tier, 'read_rel'));
    expect(e.code).toBe('tool_failed');
    expect(e.hint).toMatch(/'data\/cities\.csv' is relative: a tool's working folder is the call's scratch folder/);
  });

  it('each limit: the sandbox stopped or refused it, naming the contract setting', async () => {
    const info = await describeSandboxTier(tier as never);
    const cases: [string, string, string, string][] = [
      ['mem', 'tool_limit', 'memory', '`sandbox: { memory: 512M }`'],
      ['cpu', 'tool_limit', 'cpu', '`sandbox: { cpu: 2 }`'],
      ['fsize', 'tool_limit', 'file_size', '`sandbox: { file_size: 8M }`'],
      ['nofile', 'tool_limit', 'open_files', '`sandbox: { open_files: 128 }`'],
      ['output', 'tool_limit', 'output', '`sandbox: { output: 2M }`'],
      ['slow', 'tool_timeout', 'timeout', '`timeout:`'],
    ];
    // The process limit is enforced only where RLIMIT_NPROC counts (doctor says which tiers).
    if (info.isolates.processLimit) cases.push(['procs', 'tool_limit', 'processes', '`sandbox: { processes: 16 }`']);
    for (const [id, code, limit, hint] of cases) {
      const e = failed(await call(tier, id));
      expect({ id, code: e.code, exit: e.exitCode, limit: e.details?.limit }).toEqual({ id, code, exit: 5, limit });
      expect(e.message).toMatch(refusal);
      expect(e.hint).toContain(hint);
    }
  });

  it('a scratch folder per call: TOOLBOX_SCRATCH = TMPDIR = HOME = cwd, writable, removed after the call', async () => {
    const r = (await call(tier, 'scratch')) as { result: Record<string, string | string[]> };
    const s = r.result.scratch as string;
    expect(r.result).toMatchObject({ cwd: s, home: s, files: ['f.txt', expect.stringMatching(/^tmp/)] });
    expect((r.result.tmp as string).startsWith(`${s}/`)).toBe(true);
    expect(existsSync(s)).toBe(false);
    // Warm workers (serve, the daemon, the library): one folder per call inside the worker's, each removed.
    const rt = new Runtime(resolveProject({ cwd: p.dir }), { longRunning: true });
    try {
      const a = await onTier(tier as never, () => rt.invoke({ id: 'scratch', args: {} }));
      const b = await onTier(tier as never, () => rt.invoke({ id: 'scratch', args: {} }));
      const [sa, sb] = [(a.result as { scratch: string }).scratch, (b.result as { scratch: string }).scratch];
      expect(sa).not.toBe(sb);
      expect(b.result).toMatchObject({ cwd: sb, home: sb, files: ['f.txt', expect.stringMatching(/^tmp/)] });
      // On tier bwrap the worker's folder is a tmpfs inside its namespace: the host never sees it.
      if (tier !== 'bwrap') expect(existsSync(sa)).toBe(false);
    } finally {
      await rt.close();
    }
  });
});

it('docs: the scratch folder and the refusal codes are documented', () => {
  const sandbox = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'sandbox.md'), 'utf8');
  for (const w of ['TOOLBOX_SCRATCH', 'network_closed', 'read_only_path', 'path_not_visible', 'open_files'])
    expect(sandbox).toContain(w);
});

// Issue 34 items 1 and 6: the host reads nothing a project names outside it, and echoes nothing it read.
// Real files, links (absolute, `../..`, chains), /dev/zero, FIFOs and /proc/self/environ, through the CLI,
// serve's tools/call and the library's tool message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject } from '../../src/config.js';
import { Runtime, runToolCall } from '../../src/index.js';
import { ServeCore } from '../../src/serve/core.js';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, scratch } from './helpers.js';

// A value only the host environment and an outside "credentials" file hold: it must never come back.
const SECRET = 'HOST_ONLY_SECRET_9d41c';
const outside = scratch();
const py = '{ module: my_tools.t, function: f }';
const req = (id: string, path: string) =>
  contract(id, 'python_function', py, `requires: { python: ${JSON.stringify(path)} }`);
const p = project({
  'my_tools/__init__.py': '',
  'my_tools/t.py': 'def f(x=""):\n    return 1\n',
  'tool_registry/environ.yaml': req('environ', '/proc/self/environ'),
  'tool_registry/climb.yaml': req('climb', '../../../../../../../../etc/passwd'),
  'tool_registry/linked.yaml': req('linked', '../reqs/linked.txt'),
  'tool_registry/chain.yaml': req('chain', '../reqs/chain.txt'),
  'tool_registry/notreq.yaml': req('notreq', '../config/keys.yaml'),
  'tool_registry/dotenv.yaml': req('dotenv', '../.env.txt'),
  'tool_registry/good.yaml': req('good', '../reqs/requirements.txt'),
  'tool_registry/fifo.yaml': req('fifo', '../reqs/fifo.txt'),
  'reqs/requirements.txt': 'surely-not-installed-pkg-4711>=1.0\nSECRET_LINE=' + SECRET + '\n',
  'config/keys.yaml': `token: ${SECRET}\n`,
  '.env.txt': `KEY=${SECRET}\n`,
});
const env = { TOOLBOX_TEST_SECRET: SECRET };
let core: ServeCore;
let rt: Runtime;
beforeAll(() => {
  process.env.TOOLBOX_TEST_SECRET = SECRET;
  writeFileSync(join(outside.dir, 'credentials'), `[default]\naws_secret_access_key = ${SECRET}\n`);
  symlinkSync(join(outside.dir, 'credentials'), join(p.dir, 'reqs', 'linked.txt'));
  // A chain: inside → inside → out.
  symlinkSync('hop.txt', join(p.dir, 'reqs', 'chain.txt'));
  execFileSync('mkfifo', [join(p.dir, 'reqs', 'fifo.txt')]);
  symlinkSync('../../../../../../../..' + join(outside.dir, 'credentials'), join(p.dir, 'reqs', 'hop.txt'));
  core = new ServeCore(resolveProject({ cwd: p.dir }), { expose: 'all', caller: {} });
  rt = new Runtime(resolveProject({ cwd: p.dir }), { longRunning: true });
});
afterAll(async () => {
  delete process.env.TOOLBOX_TEST_SECRET;
  await core.close();
  await rt.close?.();
  p.cleanup();
  outside.cleanup();
});

const refusedIds = ['environ', 'climb', 'linked', 'chain', 'notreq', 'dotenv'];

describe('issue 34 item 1: requires.python is read only inside the project, never echoed', () => {
  it.each(refusedIds)('run %s: missing_dependencies without a line of the file', async (id) => {
    expect(expected('requires-host-file', 'bwrap')).toBe('refused');
    const r = await cli(['run', id, '--json'], { cwd: p.dir, env });
    expect(r.errorJson?.error.code).toBe('missing_dependencies');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toMatch(/PATH=|HOME=|root:x:0/);
  });

  it('deps and doctor --json name the rule, never the content', async () => {
    for (const argv of [['deps', '--json'], ['doctor', '--json'], ['deps']]) {
      const r = await cli(argv, { cwd: p.dir, env });
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toMatch(/root:x:0|TOOLBOX_TEST_SECRET/);
    }
    const d = await cli(['deps', '--json'], { cwd: p.dir, env });
    const all = JSON.stringify(d.json);
    expect(all).toMatch(/outside the project/);
    expect(all).toMatch(/not named like a requirements file/);
    expect(all).toMatch(/credential/);
  });

  it('a FIFO named like a requirements file is refused at once (no hang)', async () => {
    const r = await cli(['run', 'fifo', '--json'], { cwd: p.dir });
    expect(r.errorJson?.error.code).toBe('missing_dependencies');
    expect(r.errorJson.error.message).toMatch(/not a regular file/);
  });

  it('a real requirements file inside the project: its requirement names, and file:line for the rest', async () => {
    const r = await cli(['run', 'good', '--json'], { cwd: p.dir, env });
    expect(r.errorJson?.error.code).toBe('missing_dependencies');
    expect(r.errorJson.error.message).toContain('surely-not-installed-pkg-4711>=1.0');
    expect(r.errorJson.error.message).toContain('reqs/requirements.txt:2');
    expect(r.stderr).not.toContain(SECRET);
  });

  it("serve's tools/call and the library's tool message carry no line of the file", async () => {
    for (const id of [...refusedIds, 'good']) {
      const res = await core.call(id, {}, 's');
      expect(res.isError).toBe(true);
      expect(JSON.stringify(res)).not.toContain(SECRET);
      const msg = await runToolCall(rt, { id: 'c1', type: 'function', function: { name: id, arguments: '{}' } });
      expect(JSON.stringify(msg)).not.toContain(SECRET);
      expect(JSON.stringify(msg)).toMatch(/missing_dependencies/);
    }
  });

  it('validate reports each requirements path that leaves the project, at its line:column', async () => {
    const r = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir, env });
    const found = (r.json.diagnostics as { rule: string; file: string; line: number; column: number }[])
      .filter((d) => d.rule === 'project-path')
      .map((d) => `${d.file.split('/').pop()}:${d.line}:${d.column}`)
      .sort();
    expect(found).toEqual([
      'chain.yaml:8:13',
      'climb.yaml:8:13',
      'dotenv.yaml:8:13',
      'environ.yaml:8:13',
      'linked.yaml:8:13',
      'notreq.yaml:8:13',
    ]);
    expect(r.stdout).not.toContain(SECRET);
  });
});

describe('issue 34 item 1: contract files that are links, devices or FIFOs', () => {
  const q = project({ 'tool_registry/ok.yaml': contract('ok', 'command', '{ argv: [echo, hi] }') });
  beforeAll(() => {
    mkdirSync(join(outside.dir, '.aws'), { recursive: true });
    writeFileSync(join(outside.dir, '.aws', 'credentials'), `aws_secret_access_key: [${SECRET}\n`);
    symlinkSync(join(outside.dir, '.aws', 'credentials'), join(q.dir, 'tool_registry', 'diag.yaml'));
    symlinkSync('../../../../../../../../../../../dev/zero', join(q.dir, 'tool_registry', 'zero.yaml'));
    mkdirSync(join(q.dir, 'tool_registry', 'pipes'));
    execFileSync('mkfifo', [join(q.dir, 'tool_registry', 'pipes', 'fifo.pipe')]);
    symlinkSync('pipes/fifo.pipe', join(q.dir, 'tool_registry', 'fifo.yaml'));
    symlinkSync('../.env', join(q.dir, 'tool_registry', 'dotenv.yaml'));
    writeFileSync(join(q.dir, '.env'), `id: dotenv\nKEY: ${SECRET}\n`);
  });
  afterAll(() => q.cleanup());

  it('validate, list and run refuse them unread, fast, naming the rule', async () => {
    expect(expected('contract-link-out', 'bwrap')).toBe('refused');
    expect(expected('contract-device-fifo', 'bwrap')).toBe('refused');
    const v = await cli(['validate', '--json', '--no-routing'], { cwd: q.dir });
    expect(v.code).toBe(1);
    const byFile = Object.fromEntries(
      (v.json.diagnostics as { file: string; rule: string; message: string }[]).map((d) => [
        d.file.split('/').pop(),
        d,
      ]),
    );
    expect(byFile['diag.yaml']).toMatchObject({
      rule: 'file-refused',
      message: expect.stringMatching(/outside the project/),
    });
    expect(byFile['zero.yaml']).toMatchObject({
      rule: 'file-refused',
      message: expect.stringMatching(/outside the project/),
    });
    expect(byFile['fifo.yaml']).toMatchObject({
      rule: 'file-refused',
      message: expect.stringMatching(/not a regular file/),
    });
    expect(byFile['dotenv.yaml']).toMatchObject({ rule: 'file-refused' });
    expect(v.stdout).not.toContain(SECRET);
    const l = await cli(['list', '--json'], { cwd: q.dir });
    expect(l.stdout + l.stderr).not.toContain(SECRET);
    expect(JSON.stringify(l.json)).toContain('ok');
    for (const id of ['diag', 'zero', 'fifo', 'dotenv']) {
      const r = await cli(['run', id, '--json'], { cwd: q.dir });
      // Its file is broken (named by its file name): where and which rule, never what it holds.
      expect([r.code, r.errorJson?.error.code]).toEqual([3, 'tool_contract_invalid']);
      expect(r.errorJson.error.message).toMatch(/:1:1: file-refused$/);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
    const ok = await cli(['run', 'ok', '--json'], { cwd: q.dir });
    expect([ok.code, ok.json?.result]).toEqual([0, 'hi']);
  });

  it('serve lists the good tool and never the content of the others', async () => {
    const s = new ServeCore(resolveProject({ cwd: q.dir }), { expose: 'all', caller: {} });
    try {
      const res = await s.call('diag', {}, 's');
      expect(res.isError).toBe(true);
      expect(JSON.stringify(res)).not.toContain(SECRET);
      expect((await s.call('ok', {}, 's')).isError).toBeFalsy();
    } finally {
      await s.close();
    }
  });
});

describe('issue 34 item 1: toolbox init beside a .gitignore that is a link', () => {
  it('does not copy the target into the project, nor write through the link', async () => {
    expect(expected('init-gitignore-link', 'bwrap')).toBe('refused');
    const d = scratch();
    try {
      const target = join(outside.dir, 'ssh-config');
      writeFileSync(target, `Host x\n  IdentityFile ${SECRET}\n`);
      symlinkSync(target, join(d.dir, '.gitignore'));
      const r = await cli(['init', '--json'], { cwd: d.dir });
      expect(r.json?.gitignore).toBe('refused');
      expect(readFileSync(target, 'utf8')).toBe(`Host x\n  IdentityFile ${SECRET}\n`);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    } finally {
      d.cleanup();
    }
  });
});

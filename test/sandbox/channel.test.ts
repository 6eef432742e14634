// What goes in and out of a sandboxed call: environment, stdin, the private result channel,
// bound folders, aborts.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync } from 'node:fs';
import { resolveInterpreter, runSandboxed } from '../../src/sandbox/index.js';
import { tempProject } from '../helpers.js';
import { fixtureSpec, json, marker, onTier, processesWith, testTiers } from './helpers.js';

const tiers = await testTiers();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe.each(tiers)('tier %s', (tier) => {
  const run = (spec: Parameters<typeof runSandboxed>[0]) => onTier(tier, () => runSandboxed(spec));

  it('passes exactly the given environment (no parent secrets), with HOME, TMPDIR and TOOLBOX_SCRATCH in the work dir', async () => {
    process.env.TOOLBOX_TEST_PARENT_SECRET = 'do-not-leak';
    try {
      const r = await run(await fixtureSpec('env.js', [], { env: { ALLOWED: 'yes', LD_PRELOAD: '/nope.so' } }));
      const env = JSON.parse(r.stdout) as Record<string, string>;
      expect(env.ALLOWED).toBe('yes');
      expect(env.TOOLBOX_TEST_PARENT_SECRET).toBeUndefined();
      expect(env.LD_PRELOAD).toBeUndefined();
      expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined();
      expect(env.HOME).toBe(r.workDir);
      expect(env.TMPDIR).toBe(r.workDir);
      expect(env.TOOLBOX_SCRATCH).toBe(r.workDir);
      expect(env.PATH).toBeTruthy();
      const extra = Object.keys(env).filter(
        (k) => !['ALLOWED', 'HOME', 'TMPDIR', 'TOOLBOX_SCRATCH', 'PATH', 'PWD', 'TOOLBOX_SANDBOX_ID'].includes(k),
      );
      expect(extra).toEqual([]);
    } finally {
      delete process.env.TOOLBOX_TEST_PARENT_SECRET;
    }
  });

  it('returns the result channel intact whatever the tool prints', async () => {
    const r = await run(await fixtureSpec('result_channel.py', [], { resultChannel: true }));
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.result!)).toEqual({ answer: 42, text: '北京' });
    expect(r.stdout).toContain('{"fake": "result"}');
    expect(r.stderr).toContain('{"also": "fake"}');
  });

  it('feeds stdin and removes the work dir afterwards', async () => {
    const py = await resolveInterpreter('python3');
    const r = await run({
      ...(await fixtureSpec('env.js')),
      command: py.path,
      readOnlyPaths: py.readOnlyPaths,
      args: ['-c', 'import sys; print(sys.stdin.read().upper())'],
      stdin: 'héllo',
    });
    expect(r.stdout.trim()).toBe('HÉLLO');
    expect(existsSync(r.workDir)).toBe(false);
  });

  it('runs a tool from a 0700 folder (as mkdtemp makes them) bound read-only', async () => {
    const p = tempProject({
      'my_tools/tool.py':
        'import json, os\nprint(json.dumps({"uid": os.getuid(), "files": sorted(os.listdir(os.path.dirname(__file__)))}))\n',
      'secret.env': 'X=1',
    });
    cleanups.push(p.cleanup);
    chmodSync(p.dir, 0o700);
    const py = await resolveInterpreter('python3');
    const r = await run({
      ...(await fixtureSpec('env.js')),
      command: py.path,
      args: [`${p.dir}/my_tools/tool.py`],
      readOnlyPaths: [p.dir, ...py.readOnlyPaths],
    });
    expect(r.stderr).toBe('');
    expect(json(r.stdout).files).toEqual(['tool.py']);
    expect(r.warnings ?? []).toEqual([]);
  });

  it('stops the whole tree when the caller aborts', async () => {
    const m = marker();
    const ac = new AbortController();
    const pending = run(await fixtureSpec('leave_behind.sh', [m, 'wait'], { signal: ac.signal }));
    // Abort once the tool has started its children (it prints "started" right after).
    for (let i = 0; i < 200 && processesWith(m).length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    ac.abort();
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(r.limit).toBeUndefined();
    expect(processesWith(m)).toEqual([]);
  });

  it('leaves nothing behind when aborted during sandbox setup', async () => {
    for (const delay of [0, 1, 3, 6, 10, 20]) {
      const m = marker();
      const ac = new AbortController();
      const pending = run(await fixtureSpec('leave_behind.sh', [m, 'wait'], { signal: ac.signal }));
      setTimeout(() => ac.abort(), delay);
      const r = await pending;
      expect(r.aborted).toBe(true);
      expect(processesWith(m), `abort after ${delay} ms`).toEqual([]);
    }
  });
});

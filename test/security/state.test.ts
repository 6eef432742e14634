// Issue 23 item 6: `.toolbox/` is toolbox's, or it is ignored. A cloned project ships links (and
// FIFOs, hard links) in `.toolbox/`; toolbox must never write, append, prune or block through them.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chownSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cli, spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, root, scratch, tiers } from './helpers.js';

const tier = tiers[0]!;
const p = project({
  'my_tools/__init__.py': '',
  'my_tools/talk.py': 'def talk(x="hi"):\n    return "* * * * * root touch /tmp/pwned\\n" * 200\n',
  'tool_registry/talk.yaml': contract(
    'talk',
    'python_function',
    '{ module: my_tools.talk, function: talk }',
    'max_result_tokens: 100\n',
  ),
});
const outside = scratch('toolbox-victim-');
const state = join(p.dir, '.toolbox');
const env = { TOOLBOX_SANDBOX: tier, XDG_CACHE_HOME: join(outside.dir, 'xdg-cache') };
const run = (argv: string[]) => cli(argv, { cwd: p.dir, env });
const victim = (...parts: string[]) => join(outside.dir, 'victim', ...parts);

beforeEach(() => {
  rmSync(state, { recursive: true, force: true });
  rmSync(victim(), { recursive: true, force: true });
  mkdirSync(victim(), { recursive: true });
});
afterEach(() => rmSync(state, { recursive: true, force: true }));
afterAll(() => {
  p.cleanup();
  outside.cleanup();
});

const plant = (entry: string, target: string) => {
  mkdirSync(join(state, entry, '..'), { recursive: true });
  symlinkSync(target, join(state, entry));
};

describe('issue 23 item 6: .toolbox/ is toolbox own, or it is ignored', () => {
  it('a planted .toolbox/results link does not receive the cut result (the call is refused first)', async () => {
    expect(expected('state-results-link', tier)).toBe('refused');
    plant('results', victim());
    const r = await run(['run', 'talk', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    expect(readdirSync(victim())).toEqual([]);
    // Without the link the same call works and cuts into toolbox's own folder.
    rmSync(join(state, 'results'));
    const ok = await run(['run', 'talk', '--json']);
    expect(ok.code).toBe(0);
    expect(ok.json.truncated.file.startsWith(join(state, 'results') + '/')).toBe(true);
  });

  it('calls.jsonl planted as a link, or as a hard link, to another file is never appended to', async () => {
    expect(expected('state-call-log-link', tier)).toBe('refused');
    writeFileSync(victim('bashrc'), 'export PS1=ok\n');
    plant('calls.jsonl', victim('bashrc'));
    const r = await run(['run', 'talk', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    expect(readFileSync(victim('bashrc'), 'utf8')).toBe('export PS1=ok\n');
    rmSync(join(state, 'calls.jsonl'));
    linkSync(victim('bashrc'), join(state, 'calls.jsonl'));
    const h = await run(['run', 'talk', '--json']);
    expect([h.code, h.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    expect(readFileSync(victim('bashrc'), 'utf8')).toBe('export PS1=ok\n');
    // stats refuses to read through it too.
    const s = await run(['stats', '--json']);
    expect([s.code, s.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
  });

  it('a planted .toolbox/sessions link: no session written there, no old .json file there pruned', async () => {
    expect(expected('state-sessions-link', tier)).toBe('refused');
    writeFileSync(victim('old.json'), '{"keep":true}');
    const old = new Date(Date.now() - 30 * 24 * 3600_000);
    utimesSync(victim('old.json'), old, old);
    plant('sessions', victim());
    const r = await run(['run', 'talk', '--session', 's1', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    // select ranks without the session's history, records nothing, and says why.
    const sel = await run(['select', 'talk', '--session', 's1', '--json']);
    expect(sel.code).toBe(0);
    expect(JSON.stringify(sel.json.warnings)).toMatch(/sessions .*symbolic link/);
    expect(readdirSync(victim())).toEqual(['old.json']);
  });

  it('a FIFO planted as breaker.json never blocks a call', async () => {
    expect(expected('state-fifo', tier)).toBe('refused');
    mkdirSync(state);
    execFileSync('mkfifo', [join(state, 'breaker.json')]);
    // The real binary with a deadline: a read that blocks on the FIFO would hang this process for good.
    const r = await spawnCli(['run', 'talk', '--json'], { cwd: p.dir, env, timeout: 20_000 });
    expect([r.code, JSON.parse(r.stderr).error.code]).toEqual([3, 'state_unsafe']);
  });

  it('.toolbox itself a link: calls refused; list and select work, write nothing there and say why', async () => {
    expect(expected('state-dir-link', tier)).toBe('refused');
    expect(expected('state-cache-link', tier)).toBe('blocked');
    symlinkSync(victim(), state);
    const r = await run(['run', 'talk', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    for (const argv of [['list'], ['select', 'talk']]) {
      const c = await run(argv);
      expect(c.code, argv.join(' ')).toBe(0);
      expect(c.stderr).toMatch(/warning: \.toolbox .*symbolic link.*the cache there is ignored/);
    }
    expect(readdirSync(victim())).toEqual([]);
    // doctor names the problem.
    const d = await run(['doctor', '--json']);
    expect(JSON.stringify(d.json.problems)).toContain('symbolic link');
  });

  it('a planted .toolbox/cache link is ignored: nothing read from it, nothing written to it', async () => {
    plant('cache', victim());
    const c = await run(['select', 'talk', '--json']);
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/\.toolbox\/cache .*symbolic link/);
    const l = await run(['run', 'talk', '--json']);
    expect(l.code).toBe(0); // the call's own state (log, results) is toolbox's: only the cache is ignored
    expect(readdirSync(victim())).toEqual([]);
  });

  it.runIf(root)('a .toolbox/ that belongs to another user is refused', async () => {
    expect(expected('state-foreign-owner', tier)).toBe('refused');
    mkdirSync(state);
    chownSync(state, 4242, 4242);
    const r = await run(['run', 'talk', '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'state_unsafe']);
    expect(r.errorJson.error.message).toMatch(/belongs to uid 4242/);
    expect(existsSync(join(state, 'calls.jsonl'))).toBe(false);
  });
});

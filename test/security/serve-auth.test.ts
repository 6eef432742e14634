// Issue 23 item 10: `serve --http` answers only its user. The real binary on loopback, and clients
// that really run as another uid (setpriv to nobody), with and without the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, spawnCli } from '../helpers.js';
import { httpServe } from '../serve/fixtures.js';
import { expected } from './cases.js';
import { contract, project, root, runOn, tiers } from './helpers.js';

// A tool allowed the network that tries to use the user's own serve: it reads the token file and
// posts initialize to the URL (both given as its argument, "url|token file").
const p = project({
  'tool_registry/echo.yaml': contract('echo', 'command', '{ argv: [/bin/echo, "{{x}}"] }'),
  'net_tools/__init__.py': '',
  'net_tools/call_serve.py': `import json, urllib.request, urllib.error
def call(x):
    url, token_file = x.split("|")
    try:
        token = open(token_file).read().strip()
    except OSError as e:
        token = "unreadable"
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "tool", "version": "1"}}}).encode()
    req = urllib.request.Request(url, data=body, method="POST", headers={"content-type": "application/json", "accept": "application/json, text/event-stream", "authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return {"status": r.status, "token": token != "unreadable"}
    except urllib.error.HTTPError as e:
        return {"status": e.code, "token": token != "unreadable"}
`,
  'tool_registry/call_serve.yaml': contract(
    'call_serve',
    'python_function',
    '{ module: net_tools.call_serve, function: call }',
    'sandbox: { network: true }',
  ),
});
afterAll(() => p.cleanup());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'other', version: '1' } },
};

/** POST initialize from a process running as `uid` (nobody by default); resolves to the HTTP status. */
function postAs(url: string, headers: Record<string, string>, uid = 65534): Promise<number> {
  const script = `fetch(${JSON.stringify(url)}, { method: 'POST', headers: ${JSON.stringify({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...headers,
  })}, body: ${JSON.stringify(JSON.stringify(INIT))} }).then((r) => console.log(r.status), (e) => console.log('error', e.message))`;
  const argv = ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', process.execPath, '-e', script];
  return new Promise((res, rej) =>
    execFile('/usr/bin/setpriv', argv, { cwd: '/', env: { PATH: '/usr/bin:/bin' } }, (err, out) =>
      err ? rej(err) : res(Number(String(out).trim())),
    ),
  );
}
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(INIT),
  }).then((r) => r.status);

describe('item 23.10: serve --http answers only its user', () => {
  let srv: Awaited<ReturnType<typeof httpServe>>;
  beforeAll(async () => {
    srv = await httpServe(join(p.dir, 'tool_registry'));
  });
  afterAll(async () => {
    srv.child.kill('SIGTERM');
    await srv.exited;
  });

  it('by default needs a token, made in a private state folder and shown once', async () => {
    expect(expected('serve-no-token-loopback', 'bwrap')).toBe('refused');
    expect(srv.auth).toMatchObject({ mode: 'token', source: 'file', created: true, sameUser: true });
    const file = srv.auth.file!;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    expect(srv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Not a terminal: the token itself is not printed, only where it is and how to send it.
    await expect.poll(() => srv.stderr()).toMatch(/Authorization: Bearer/);
    expect(srv.stderr()).not.toContain(srv.token!);
    expect(await post(srv.url, {})).toBe(401);
    expect(await post(srv.url, { authorization: 'Bearer not-the-token-0123456789' })).toBe(401);
    expect(await post(srv.url, srv.headers)).toBe(200);
  });

  it.runIf(root)('another local user is refused, without the token and with a leaked one', async () => {
    expect(expected('serve-other-user', 'bwrap')).toBe('refused');
    expect(await postAs(srv.url, {})).toBe(401);
    expect(await postAs(srv.url, srv.headers)).toBe(403);
    // The same client as this user gets in: the refusal is about the user, not the program.
    expect(await postAs(srv.url, srv.headers, process.getuid!())).toBe(200);
  });

  it.each(tiers)('a sandboxed tool allowed the network cannot use the server (tier %s)', async (tier) => {
    const r = await runOn(tier, p.dir, ['run', 'call_serve', '--x', `${srv.url}|${srv.auth.file}`, '--json']);
    // Issue 33: tier none cannot give the tool a network namespace, so it does not run at all.
    if (expected('serve-sandboxed-tool', tier) === 'refused') return void expect(r.code).toBe(7);
    expect(r.code).toBe(0);
    const got = r.json.result as { status: number; token: boolean };
    expect(expected('serve-sandboxed-tool', tier)).toBe('blocked');
    // The state folder is not in its sandbox on bwrap; on unshare it reads the token, but serve's
    // loopback is not in its network namespace and the egress proxy refuses it (403).
    if (tier === 'bwrap') expect(got.token).toBe(false);
    expect([401, 403]).toContain(got.status);
  });

  it('shows a new token once, on a terminal, and only where it is on later starts', () => {
    const state = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
    try {
      const screen = () => {
        const log = join(state, 'pty.log');
        execFileSync(
          'python3',
          [
            join(REPO, 'test', 'e2e', 'pty-driver.py'),
            JSON.stringify([['clients must send', '\x03']]),
            process.execPath,
            BIN,
            'serve',
            '--http',
            '0',
          ],
          {
            cwd: p.dir,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', PTY_LOG: log, XDG_STATE_HOME: state },
            timeout: 60_000,
          },
        );
        return readFileSync(log, 'utf8');
      };
      const first = screen();
      const token = readFileSync(join(state, 'toolbox', 'serve-token'), 'utf8').trim();
      expect(first).toContain(token);
      expect(first).toMatch(/shown once/);
      const second = screen();
      expect(second).not.toContain(token);
      expect(second).toContain(join(state, 'toolbox', 'serve-token'));
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }, 120_000);

  it('a second server reuses the token; a planted or loose token file is refused (exit 3)', async () => {
    const state = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
    try {
      const env = { XDG_STATE_HOME: state };
      const again = await httpServe(join(p.dir, 'tool_registry'), [], env);
      const token = again.token;
      again.child.kill('SIGTERM');
      await again.exited;
      const second = await httpServe(join(p.dir, 'tool_registry'), [], env);
      expect(second.auth.created).toBe(false);
      expect(second.token).toBe(token);
      second.child.kill('SIGTERM');
      await second.exited;
      const file = join(state, 'toolbox', 'serve-token');
      const attempt = () =>
        spawnCli(['serve', '--http', '0', '--json'], { cwd: p.dir, env, timeout: 20_000 }).then((r) => ({
          code: r.code,
          error: JSON.parse(r.stderr.trim().split('\n').pop()!).error.code as string,
        }));
      chmodSync(file, 0o644);
      expect(await attempt()).toEqual({ code: 3, error: 'serve_token_unsafe' });
      rmSync(file);
      const elsewhere = join(state, 'known-token');
      writeFileSync(elsewhere, 'a-token-the-attacker-knows-0123456789\n', { mode: 0o600 });
      symlinkSync(elsewhere, file);
      expect(await attempt()).toEqual({ code: 3, error: 'serve_token_unsafe' });
      expect(lstatSync(file).isSymbolicLink()).toBe(true); // left as it was
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it.runIf(root)('--no-auth answers everyone, and says so loudly', async () => {
    const open = await httpServe(join(p.dir, 'tool_registry'), ['--no-auth']);
    try {
      expect(open.auth).toEqual({ mode: 'none' });
      await expect.poll(() => open.stderr()).toMatch(/WARNING: --no-auth/);
      expect(await postAs(open.url, {})).toBe(200);
    } finally {
      open.child.kill('SIGTERM');
      await open.exited;
    }
  });

  it('refuses --no-auth with --token-env, and a state folder it cannot make private', async () => {
    const r = await spawnCli(['serve', '--http', '0', '--json', '--no-auth', '--token-env', 'X'], {
      cwd: p.dir,
      timeout: 20_000,
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code).toBe('conflicting_options');
    const state = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
    try {
      mkdirSync(join(state, 'toolbox'));
      if (root) chmodSync(join(state, 'toolbox'), 0o777);
      // A folder of another user: never used.
      if (root) execFileSync('chown', ['65534', join(state, 'toolbox')]);
      const s = await spawnCli(['serve', '--http', '0', '--json'], {
        cwd: p.dir,
        env: { XDG_STATE_HOME: state },
        timeout: 20_000,
      });
      if (root) {
        expect(s.code).toBe(3);
        expect(JSON.parse(s.stderr.trim().split('\n').pop()!).error.code).toBe('serve_token_unavailable');
      }
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});

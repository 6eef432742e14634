// Whom the daemon serves (issue 38 item 2): a Python agent calling the toolbox binary in a loop, with
// another PATH and PYENV_VERSION than the daemon's that find the same python3, is served by it; a
// caller whose PATH finds another python3 is served with its own interpreter in a pool of its own;
// a caller with another user config folder or toolbox setting is turned away, counted by reason,
// and no reason carries a value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, testConfigEnv } from '../helpers.js';
import { marker } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';

const p = daemonProject(marker());
const tmp = mkdtempSync(join(tmpdir(), 'toolbox-callers-'));
const python = realpathSync('/usr/bin/python3');

// A pyenv root of our own (shims never run: toolbox reads the version choice), one version installed.
const pyenv = join(tmp, 'pyenv');
mkdirSync(join(pyenv, 'shims'), { recursive: true });
mkdirSync(join(pyenv, 'libexec'));
mkdirSync(join(pyenv, 'versions', '3.11.7', 'bin'), { recursive: true });
symlinkSync(python, join(pyenv, 'versions', '3.11.7', 'bin', 'python3'));
writeFileSync(join(pyenv, 'shims', 'python3'), '#!/bin/sh\nexit 99\n');
chmodSync(join(pyenv, 'shims', 'python3'), 0o755);
// Folders the agent's PATH has in front: empty ones, and one where `node` is the test's node.
const extra = [join(tmp, 'a'), join(tmp, 'b')];
for (const d of extra) mkdirSync(d);
symlinkSync(process.execPath, join(extra[1]!, 'node'));
const venv = join(tmp, 'venv');

const base = { HOME: process.env.HOME!, ...testConfigEnv(), ...p.env } as Record<string, string>;
const daemonEnv = { ...base, PATH: `${pyenv}/shims:/usr/bin:/bin`, PYENV_VERSION: '3.11.7' };

// The agent: a Python program that calls the toolbox binary (its shebang finds node on its PATH).
const AGENT = `import json, os, subprocess, sys
env = json.loads(sys.argv[2])
out = []
for _ in range(int(sys.argv[3])):
    r = subprocess.run([sys.argv[1], "run", "which_python", "--json", "--verbose"], cwd=sys.argv[4], env=env,
                       capture_output=True, text=True)
    out.append({"code": r.returncode, "stdout": r.stdout, "stderr": r.stderr})
print(json.dumps(out))
`;
const agentFile = join(tmp, 'agent.py');
writeFileSync(agentFile, AGENT);
type Call = { code: number; stdout: string; stderr: string };
const agent = (env: Record<string, string>, n = 1): Call[] =>
  JSON.parse(
    execFileSync('/usr/bin/python3', [agentFile, BIN, JSON.stringify(env), String(n), p.dir], { encoding: 'utf8' }),
  );
const prefixOf = (c: Call) => (JSON.parse(c.stdout) as { result: { prefix: string } }).result.prefix;
const status = async () => JSON.parse((await p.tb(['daemon', 'status', '--json'], { env: daemonEnv })).stdout);

beforeAll(async () => {
  p.write('benchtools/which.py', 'import sys\ndef which():\n    return {"prefix": sys.prefix}\n');
  p.write(
    'tool_registry/which_python.yaml',
    `id: which_python
name: which python
description: Returns the prefix of the Python interpreter that runs this tool, for daemon tests.
schema: { type: object, properties: {} }
loader: python_function
loader_config:
  module: benchtools.which
  function: which
`,
  );
  execFileSync(python, ['-m', 'venv', '--without-pip', venv]);
  const r = await p.tb(['daemon', 'start', '--idle', '5m'], { env: daemonEnv });
  expect(r.code).toBe(0);
  // `daemon start` says whom it serves: the python3 it finds, the sandbox tier, the user config folder.
  expect(r.stdout).toContain(`python3 ${join(pyenv, 'versions', '3.11.7', 'bin', 'python3')}`);
  expect(r.stdout).toMatch(/sandbox tier probed/);
  expect(r.stdout).toContain(`config ${realpathSync(base.XDG_CONFIG_HOME ?? join(base.HOME, '.config'))}`);
}, 60_000);
afterAll(async () => {
  await p.cleanup();
  rmSync(tmp, { recursive: true, force: true });
}, 30_000);

describe('whom the daemon serves', () => {
  it('serves a Python agent whose PATH and PYENV_VERSION differ but find the same python3 and node', async () => {
    const before = await status();
    // Other folders first, the rest reordered; PYENV_VERSION 3.11 picks the installed 3.11.7 as 3.11.7 does.
    const env = {
      ...base,
      PATH: `${extra.join(':')}:/usr/local/bin:${pyenv}/shims:/bin:/usr/bin`,
      PYENV_VERSION: '3.11',
    };
    const calls = agent(env, 3);
    for (const c of calls) {
      expect(c.code).toBe(0);
      expect(c.stderr).toContain(`answered by the daemon (pid ${before.pid}`);
      expect(c.stderr).toContain("the daemon's own interpreter, sandbox tier and user folders");
      expect(prefixOf(c)).toBe('/usr');
    }
    const after = await status();
    expect(after.requests - before.requests).toBe(3);
    expect(after.callers.same - before.callers.same).toBe(3);
    expect(after.callers.turnedAway).toEqual(before.callers.turnedAway);
    // The same answer as the direct path gives that caller.
    const [direct] = agent({ ...env, TOOLBOX_DAEMON: 'off' });
    expect(prefixOf(direct!)).toBe('/usr');
  }, 60_000);

  it('serves a caller whose PATH finds another python3 (a venv) with that python3, in a pool of its own', async () => {
    const before = await status();
    const env = { ...base, PATH: `${venv}/bin:${extra[1]}:/usr/bin:/bin`, PYENV_VERSION: '3.11.7' };
    const calls = agent(env, 2);
    for (const c of calls) {
      expect(c.code).toBe(0);
      expect(c.stderr).toMatch(
        /answered by the daemon \(pid \d+, pool [0-9a-f]{8} of this caller's own: python3 resolves/,
      );
      expect(prefixOf(c)).toBe(venv);
    }
    const [direct] = agent({ ...env, TOOLBOX_DAEMON: 'off' });
    expect(direct!.stderr).toContain('not using the daemon: the daemon is off');
    expect(prefixOf(direct!)).toBe(venv);
    const after = await status();
    expect(after.callers.own - before.callers.own).toBe(2);
    expect(after.callers.same).toBe(before.callers.same);
    // The daemon's own callers still get its python3 (the venv's pool did not replace it).
    const [again] = agent({ ...base, PATH: `${extra[1]}:${pyenv}/shims:/usr/bin:/bin`, PYENV_VERSION: '3.11.7' });
    expect(prefixOf(again!)).toBe('/usr');
  }, 60_000);

  it('turns away callers with another user config folder or toolbox setting, counted by reason, without values', async () => {
    const before = await status();
    const other = mkdtempSync(join(tmp, 'config-'));
    const secret = 's3cr3t-value-9d1f';
    const path = `${extra[1]}:/usr/bin:/bin`;
    const cases: [Record<string, string>, string, RegExp][] = [
      [
        { XDG_CONFIG_HOME: other },
        'config_dir',
        /user config folder .* differs from the daemon's \(XDG_CONFIG_HOME\/HOME\)/,
      ],
      [{ TOOLBOX_SANDBOX: 'none' }, 'sandbox_tier', /TOOLBOX_SANDBOX differs/],
      [{ TOOLBOX_STATE_PASSWORD: secret }, 'toolbox_setting', /TOOLBOX_STATE_PASSWORD differs/],
    ];
    for (const [change, , said] of cases) {
      const r = spawnSync(process.execPath, [BIN, 'select', 'add two numbers', '--verbose'], {
        cwd: p.dir,
        env: { ...base, PATH: path, ...change },
        encoding: 'utf8',
      });
      expect(r.stderr).toMatch(/not using the daemon: /);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toContain(secret);
      expect(r.stderr).not.toContain(other);
    }
    const after = await status();
    expect(after.requests).toBe(before.requests);
    const count = (st: { callers: { turnedAway: { code: string; count: number }[] } }, code: string) =>
      st.callers.turnedAway.find((a) => a.code === code)?.count ?? 0;
    for (const [, code] of cases) expect(count(after, code) - count(before, code)).toBe(1);
    expect(JSON.stringify(after)).not.toContain(secret);
    const human = (await p.tb(['daemon', 'status'], { env: daemonEnv })).stdout;
    expect(human).toMatch(/turned away/);
    expect(human).toMatch(/1 × sandbox_tier: TOOLBOX_SANDBOX differs/);
  }, 60_000);
});

// Whom the daemon serves (daemon/caller.ts): what decides a call is compared, not raw variables.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Whom } from '../../src/daemon/caller.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolbox-whom-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dir = (name: string) => {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const home = dir('home');
const config = dir('home/.config');
symlinkSync(config, join(tmp, 'config-link'));
// A python3 that is another program than /usr/bin's: the same binary reached from another folder.
const otherPy = dir('other-bin');
symlinkSync(realpathSync('/usr/bin/python3'), join(otherPy, 'python3'));

const own = { PATH: '/usr/bin:/bin', HOME: home, SECRET_TOKEN: 'a' };
const whom = new Whom(own);

describe('Whom.judge', () => {
  it.each([
    ['the same environment', {}],
    ['other unrelated variables', { SECRET_TOKEN: 'b', LANG: 'C' }],
    ['empty folders in front of PATH, and the rest reordered', { PATH: `${dir('a')}:${dir('b')}:/bin:/usr/bin` }],
    ['PYENV_VERSION without a pyenv shim on PATH', { PYENV_VERSION: '3.12' }],
    ['XDG_CONFIG_HOME naming the same folder through a link', { XDG_CONFIG_HOME: join(tmp, 'config-link') }],
    ['TMPDIR=/tmp/ where the daemon has none', { TMPDIR: '/tmp/' }],
    ['another TOOLBOX_DAEMON (it only picks the daemon)', { TOOLBOX_DAEMON: 'on' }],
  ])('serves %s as the daemon', (_what, change) => {
    expect(whom.judge({ ...own, ...change })).toEqual({ serve: 'same' });
  });

  it('serves a caller whose PATH finds another python3 with its own lookup, naming the program, not the path', () => {
    const v = whom.judge({ ...own, PATH: `${otherPy}:/usr/bin:/bin` });
    expect(v.serve).toBe('own');
    expect(v.serve === 'own' && v.why).toMatch(/^python3 resolves to another program/);
    expect(JSON.stringify(v)).not.toContain(otherPy);
  });

  it.each([
    ['another user config folder', { XDG_CONFIG_HOME: dir('elsewhere') }, 'config_dir', 'XDG_CONFIG_HOME'],
    ['another home', { HOME: dir('home2') }, 'home', 'HOME'],
    ['another cache folder', { XDG_CACHE_HOME: dir('cache2') }, 'cache_dir', 'XDG_CACHE_HOME'],
    ['another temp folder', { TMPDIR: dir('tmp2') }, 'tmpdir', 'TMPDIR'],
    ['a forced sandbox tier', { TOOLBOX_SANDBOX: 'none' }, 'sandbox_tier', 'TOOLBOX_SANDBOX'],
    ['a state password', { TOOLBOX_STATE_PASSWORD: 'hunter2' }, 'toolbox_setting', 'TOOLBOX_STATE_PASSWORD'],
    ['a telemetry endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }, 'telemetry', 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ])('turns away %s, naming the variable and never its value', (_what, change, code, name) => {
    const v = whom.judge({ ...own, ...change });
    expect(v).toMatchObject({ serve: 'away', code });
    expect(v.serve === 'away' && v.why).toContain(name);
    for (const value of Object.values(change)) expect(JSON.stringify(v)).not.toContain(value);
  });

  it('a daemon with a setting turns away callers without it', () => {
    const forced = new Whom({ ...own, TOOLBOX_SANDBOX: 'bwrap' });
    expect(forced.judge(own)).toMatchObject({ serve: 'away', code: 'sandbox_tier' });
    expect(forced.describe().tier).toBe('forced bwrap (TOOLBOX_SANDBOX)');
    expect(forced.describe().settings).toEqual(['TOOLBOX_SANDBOX']);
  });

  it('judges one environment again once its verdict is 2 s old (a python3 put on its PATH meanwhile)', () => {
    const w = new Whom(own);
    const later = dir('later');
    const env = { ...own, PATH: `${later}:/usr/bin:/bin` };
    expect(w.judge(env, 1000)).toEqual({ serve: 'same' });
    symlinkSync(realpathSync('/usr/bin/python3'), join(later, 'python3'));
    expect(w.judge(env, 2500)).toEqual({ serve: 'same' }); // cached
    expect(w.judge(env, 3100)).toMatchObject({ serve: 'own' });
  });

  it('describes whom it serves: python3, tier, config folder', () => {
    expect(whom.describe()).toEqual({
      python3: '/usr/bin/python3',
      tier: 'probed',
      configDir: join(realpathSync(config), 'toolbox'),
      settings: [],
    });
  });
});

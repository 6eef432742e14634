import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStateUrl, redactText, redactUrl, resolveStateUrl } from '../../src/state/url.js';
import { ToolboxError } from '../../src/errors.js';
import { tempProject } from '../helpers.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as ToolboxError).code;
  }
  return undefined;
};

describe('state URLs', () => {
  it('parses redis:// and rediss:// with host, port, db, credentials and namespace', () => {
    expect(parseStateUrl('redis://127.0.0.1:6390/2', 'flag')).toMatchObject({
      tls: false,
      host: '127.0.0.1',
      port: 6390,
      db: 2,
      ns: 'toolbox',
      shown: 'redis://127.0.0.1:6390/2',
    });
    const u = parseStateUrl('rediss://app:s3cr%40t@cache.example:6380/0?ns=team-a', 'env');
    expect(u).toMatchObject({ tls: true, username: 'app', password: 's3cr@t', ns: 'team-a', port: 6380 });
    expect(u.shown).toBe('rediss://app:***@cache.example:6380/0?ns=team-a');
    expect(parseStateUrl('redis://[::1]', 'flag')).toMatchObject({ host: '::1', port: 6379, db: 0 });
  });

  it('takes credentials from the environment when the URL has none', () => {
    const u = parseStateUrl('redis://h', 'flag', {
      TOOLBOX_STATE_USERNAME: 'bob',
      TOOLBOX_STATE_PASSWORD: 'pw-from-env',
    });
    expect(u).toMatchObject({ username: 'bob', password: 'pw-from-env', shown: 'redis://h' });
  });

  it('reads the password from TOOLBOX_STATE_PASSWORD_FILE (a container secret), and says which file it cannot read', () => {
    const p = tempProject({});
    try {
      const file = join(p.dir, 'redis_password');
      writeFileSync(file, 'pw-from-secret\n');
      expect(parseStateUrl('redis://h', 'env', { TOOLBOX_STATE_PASSWORD_FILE: file })).toMatchObject({
        password: 'pw-from-secret',
        shown: 'redis://h',
      });
      // The URL's own password and TOOLBOX_STATE_PASSWORD come first.
      expect(
        parseStateUrl('redis://h', 'env', { TOOLBOX_STATE_PASSWORD: 'pw-env', TOOLBOX_STATE_PASSWORD_FILE: file })
          .password,
      ).toBe('pw-env');
      const missing = join(p.dir, 'nope');
      expect(code(() => parseStateUrl('redis://h', 'env', { TOOLBOX_STATE_PASSWORD_FILE: missing }))).toBe(
        'state_password_file_unreadable',
      );
    } finally {
      p.cleanup();
    }
  });

  it('refuses anything else with state_url_invalid, without printing the password', () => {
    for (const bad of ['http://h', 'redis://', 'redis://h/x', 'redis://h?tls=1', 'redis://h?ns=a b', 'nope']) {
      expect(code(() => parseStateUrl(bad, 'flag'))).toBe('state_url_invalid');
    }
    try {
      parseStateUrl('memcached://u:hunter2@h', 'flag');
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
      expect((e as Error).message).toContain('u:***@h');
    }
  });

  it('redacts credentials in any text', () => {
    expect(redactUrl('connect redis://:pw@h:1/0 and rediss://user:pw2@x')).toBe(
      'connect redis://:***@h:1/0 and rediss://user:***@x',
    );
    expect(redactUrl('redis://tokenonly@h')).toBe('redis://***@h');
    expect(redactText('WRONGPASS for hunter22', ['hunter22'])).toBe('WRONGPASS for ***');
  });
});

describe('which state URL is in force', () => {
  let home: string;
  const p = tempProject({});
  const saved = process.env.XDG_CONFIG_HOME;
  beforeEach(() => {
    home = p.write('home/x', '').replace(/\/x$/, '');
    mkdirSync(join(home, 'toolbox'), { recursive: true, mode: 0o700 });
    process.env.XDG_CONFIG_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  it('flag, else environment, else the user config; off turns one off', () => {
    writeFileSync(
      join(home, 'toolbox', 'config.yaml'),
      'serve:\n  sampling: { requests: 2 }\nstate: redis://cfg:1/0 # mine\n',
      {
        mode: 0o600,
      },
    );
    expect(resolveStateUrl({ env: {} })).toMatchObject({ host: 'cfg', source: 'config' });
    expect(resolveStateUrl({ env: { TOOLBOX_STATE_URL: 'redis://env:2' } })).toMatchObject({
      host: 'env',
      source: 'env',
    });
    expect(resolveStateUrl({ flag: 'redis://flag:3', env: { TOOLBOX_STATE_URL: 'redis://env:2' } })).toMatchObject({
      host: 'flag',
      source: 'flag',
    });
    expect(resolveStateUrl({ flag: 'off', env: { TOOLBOX_STATE_URL: 'redis://env:2' } })).toBeUndefined();
    expect(resolveStateUrl({ env: { TOOLBOX_STATE_URL: 'off' } })).toBeUndefined();
  });

  it('a config file inside the project, or one others may write, does not count (a clone cannot point your calls at its Redis)', () => {
    writeFileSync(join(home, 'toolbox', 'config.yaml'), 'state: redis://cfg:1/0\n');
    chmodSync(join(home, 'toolbox', 'config.yaml'), 0o666);
    expect(resolveStateUrl({ env: {} })).toBeUndefined(); // writable by others
    chmodSync(join(home, 'toolbox', 'config.yaml'), 0o600);
    expect(resolveStateUrl({ env: {}, projectRoot: p.dir })).toBeUndefined(); // the config lies in the project
    expect(resolveStateUrl({ env: {}, projectRoot: join(p.dir, 'elsewhere') })).toMatchObject({ host: 'cfg' });
  });
});

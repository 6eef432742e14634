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

describe('a state URL password never shows, whatever it holds', () => {
  const secret = 'S3cr3tPart';
  // Passwords with every character that ends a URL part, raw (the URL may not even parse) or encoded.
  const passwords = [
    `${secret}/x`,
    `a/${secret}`,
    `${secret}#frag`,
    `q?${secret}`,
    `${secret}@at`,
    `p@${secret}@x`,
    `${secret}%zz`,
    `${secret}%41`,
    `${secret} space`,
    encodeURIComponent(`${secret}/#?@%`),
  ];
  const forms = (pw: string) => [
    `redis://app:${pw}@127.0.0.1:6379/0`,
    `rediss://app:${pw}@cache.example:6380/1?ns=a`,
    `redis://:${pw}@h`,
    `redis://${pw}@h`, // user-only: the name may itself be a token
    `redis://${pw}:${pw}@h`,
    `redis://app:${pw}@h/zz`, // invalid db
    `redis://app:${pw}@h?tls=1`, // unknown parameter
    `redis://app:${pw}@`, // no host
    `http://app:${pw}@h`, // wrong scheme
    `redis:/app:${pw}@h`,
    `redis:app:${pw}@h`,
  ];

  it('is redacted in shown, in every state_url_invalid message and hint', () => {
    let refused = 0;
    for (const pw of passwords)
      for (const url of forms(pw)) {
        try {
          const u = parseStateUrl(url, 'flag');
          expect(u.shown, url).not.toContain(secret);
          expect(u.shown, url).toContain('***@');
        } catch (e) {
          const err = e as ToolboxError;
          expect(err.code, url).toBe('state_url_invalid');
          expect(`${err.message} ${err.hint ?? ''} ${JSON.stringify(err.details ?? {})}`, url).not.toContain(secret);
          expect(err.message, url).toContain('***');
          refused++;
        }
      }
    expect(refused).toBeGreaterThan(20); // the invalid forms really went through the error path
  });

  it('is redacted from any text quoting such URLs (a client library error), several in one line', () => {
    for (const pw of passwords.filter((x) => !/\s/.test(x))) {
      const text = `connect to redis://app:${pw}@h:1/0 failed; fallback rediss://:${pw}@x (and redis://${pw}@y)`;
      expect(redactText(text), pw).not.toContain(secret);
      expect(redactUrl(text), pw).toMatch(
        /^connect to redis:\/\/app:\*\*\*@h:1\/0 failed; fallback rediss:\/\/:\*\*\*@x/,
      );
    }
    expect(redactText(`WRONGPASS ${secret}/x`, [`${secret}/x`])).toBe('WRONGPASS ***');
    // White space ends a URL in free text: a password holding some is removed as a known secret.
    const spaced = `${secret} space`;
    expect(redactText(`redis://app:${spaced}@h`, [spaced])).not.toContain(secret);
  });

  it('keeps the useful parts: host, port, db, namespace and a plain username', () => {
    expect(parseStateUrl('rediss://app:a%2Fb%23c@cache:6380/2?ns=t', 'env').shown).toBe(
      'rediss://app:***@cache:6380/2?ns=t',
    );
    expect(redactUrl('no credentials: redis://h:1/0 and https://example.com/a?b=c')).toBe(
      'no credentials: redis://h:1/0 and https://example.com/a?b=c',
    );
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

// state/url.ts, condition by condition: what is redacted, which URLs are refused, which source is in
// force. Each test fails when one check is removed (issue 34 item 6, `npm run mutate -- trust-state`).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolboxError } from '../../src/errors.js';
import {
  noPasswordWarning,
  parseStateUrl,
  redactStateUrl,
  redactText,
  redactUrl,
  resolveStateUrl,
} from '../../src/state/url.js';

const refusal = (fn: () => unknown): ToolboxError => {
  try {
    fn();
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('expected a refusal');
};

describe('redaction', () => {
  it('hides the credentials of every URL in a text, each up to its own last @, never the host', () => {
    expect(redactUrl('no url here')).toBe('no url here');
    // A scheme with nothing after it hides nothing of the text that follows.
    expect(redactUrl('see redis:// and mail me@host')).toBe('see redis:// and mail me@host');
    expect(redactUrl('redis://u:p@h:1 and rediss://:q@k/0')).toBe('redis://u:***@h:1 and rediss://:***@k/0');
    // A URL without credentials is left whole; the next URL's @ is not this one's.
    expect(redactUrl('redis://h:1 then redis://a:b@c')).toBe('redis://h:1 then redis://a:***@c');
    expect(redactUrl('redis://h:1/x redis://a:b@c')).toBe('redis://h:1/x redis://a:***@c');
    // A password with / # ? @ is hidden whole, up to the last @ before white space.
    expect(redactUrl('redis://u:p/a#b?c@d@host:6379/0 rest')).toBe('redis://u:***@host:6379/0 rest');
    // A scheme inside what was already hidden is not a second URL.
    expect(redactUrl('redis://u:x://y@host')).toBe('redis://u:***@host');
    // An @ right after the scheme hides nothing but is kept.
    expect(redactUrl('redis://@host')).toBe('redis://***@host');
    // A username that is not plainly one is hidden too; a lone name may be a token.
    expect(redactUrl('redis://to%20ken:p@h')).toBe('redis://***@h');
    expect(redactUrl('redis://token@h')).toBe('redis://***@h');
  });

  it('shows one state URL as given without its credentials, even when it does not parse', () => {
    expect(redactStateUrl('redis://u:p@h')).toBe('redis://u:***@h');
    expect(redactStateUrl('redis:u:p@h')).toBe('redis:u:***@h');
    expect(redactStateUrl('u:p@h')).toBe('u:***@h');
    expect(redactStateUrl('redis://h')).toBe('redis://h');
    // An @ inside the scheme part is no credential.
    expect(redactStateUrl('redis://')).toBe('redis://');
  });

  it('removes given secrets of three characters or more, the longest first', () => {
    expect(redactText('key abcdef and abc', ['abc', 'abcdef'])).toBe('key *** and ***');
    expect(redactText('ab cd', ['ab', undefined, ''])).toBe('ab cd');
    expect(redactText('abc', ['abc'])).toBe('***');
    expect(redactText('x redis://u:p@h', [])).toBe('x redis://u:***@h');
  });

  it('warns for a URL without a password, and only then', () => {
    const open = parseStateUrl('redis://h', 'flag');
    expect(noPasswordWarning(open)?.message).toContain('redis://h has no password');
    expect(noPasswordWarning(parseStateUrl('redis://:pw@h', 'flag'))).toBeUndefined();
  });
});

describe('parseStateUrl', () => {
  it('takes a URL with white space around it, and reads host, port, db and TLS', () => {
    const u = parseStateUrl('  rediss://:pw@[::1]:6380/3?ns=app \n', 'env');
    expect(u).toMatchObject({ url: 'rediss://:pw@[::1]:6380/3?ns=app', tls: true, host: '::1', port: 6380, db: 3 });
    expect(u.shown).toBe('rediss://:***@[::1]:6380/3?ns=app');
    expect(parseStateUrl('redis://h', 'flag')).toMatchObject({ port: 6379, db: 0, ns: 'toolbox', tls: false });
    expect(parseStateUrl('redis://h/0', 'flag').db).toBe(0);
    expect(parseStateUrl('redis://h/', 'flag').db).toBe(0);
  });

  it('refuses an @ the parser did not take as credentials, a fragment, and a database that is no number', () => {
    expect(refusal(() => parseStateUrl('redis://h/0?ns=a@b', 'flag')).message).toContain(
      "an '@' outside the credentials",
    );
    const frag = refusal(() => parseStateUrl('redis://h:1/0#x', 'flag'));
    expect(frag.code).toBe('state_url_invalid');
    expect(frag.message).toContain("a '#' fragment");
    expect(frag.exitCode).toBe(2);
    const db = refusal(() => parseStateUrl('redis://h/abc', 'flag'));
    expect(db.message).toContain("database 'abc' is not a number");
    // With credentials in the text, what the parser calls a path may be a piece of the password: never quoted.
    const hidden = refusal(() => parseStateUrl('redis://u:p@h/abc', 'flag'));
    expect(hidden.message).toContain('database is not a number');
  });

  it('reads the password from the environment or a file when the URL has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolbox-url-'));
    try {
      writeFileSync(join(dir, 'pw'), 'from-file\n');
      expect(parseStateUrl('redis://h', 'env', { TOOLBOX_STATE_PASSWORD_FILE: join(dir, 'pw') }).password).toBe(
        'from-file',
      );
      const missing = refusal(() =>
        parseStateUrl('redis://h', 'env', { TOOLBOX_STATE_PASSWORD_FILE: join(dir, 'missing') }),
      );
      expect(missing.code).toBe('state_password_file_unreadable');
      expect(missing.message).toContain('(ENOENT)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('resolveStateUrl: which source is in force', () => {
  let cfg: string;
  const saved = process.env.XDG_CONFIG_HOME;
  beforeEach(() => {
    cfg = mkdtempSync(join(tmpdir(), 'toolbox-url-cfg-'));
    mkdirSync(join(cfg, 'toolbox'), { mode: 0o700 });
    process.env.XDG_CONFIG_HOME = cfg;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
    rmSync(cfg, { recursive: true, force: true });
  });
  const config = (text: string) => {
    writeFileSync(join(cfg, 'toolbox', 'config.yaml'), text, { mode: 0o600 });
    chmodSync(join(cfg, 'toolbox', 'config.yaml'), 0o600);
  };

  it('the flag first (off or empty turns the rest off), then the environment, then the user config', () => {
    config('state: redis://from-config:1/0\n');
    const env = { TOOLBOX_STATE_URL: 'redis://from-env:1/0' };
    expect(resolveStateUrl({ flag: 'redis://from-flag:1', env })?.host).toBe('from-flag');
    expect(resolveStateUrl({ flag: 'off', env })).toBeUndefined();
    expect(resolveStateUrl({ flag: '', env })).toBeUndefined();
    expect(resolveStateUrl({ env })?.host).toBe('from-env');
    expect(resolveStateUrl({ env: { TOOLBOX_STATE_URL: 'off' } })).toBeUndefined();
    expect(resolveStateUrl({ env: { TOOLBOX_STATE_URL: '' } })).toBeUndefined();
    expect(resolveStateUrl({ env: {} })?.host).toBe('from-config');
    expect(resolveStateUrl({ env: {}, userConfig: false })).toBeUndefined();
    expect(resolveStateUrl({ env: {}, userConfig: true })?.host).toBe('from-config');
  });

  it('a config without state, or one that does not count, gives none; a state that is no URL is refused at its line', () => {
    config('other: 1\n');
    expect(resolveStateUrl({ env: {} })).toBeUndefined();
    config('state: redis://c:1\n');
    chmodSync(join(cfg, 'toolbox', 'config.yaml'), 0o666);
    expect(resolveStateUrl({ env: {} })).toBeUndefined();
    config('# mine\nstate: "  "\n');
    const e = refusal(() => resolveStateUrl({ env: {} }));
    expect(e.code).toBe('user_config_invalid');
    expect(e.message).toMatch(/config\.yaml:2:\d+: state: needs a URL/);
    config('state: 42\n');
    expect(refusal(() => resolveStateUrl({ env: {} })).code).toBe('user_config_invalid');
    config('state: "  redis://padded:1  "\n');
    expect(resolveStateUrl({ env: {} })?.url).toBe('redis://padded:1');
  });
});

// The user's own settings file (policy/user-config.ts) and the user-only folders (util/user-dirs.ts),
// condition by condition: the file counts only when it is the user's alone and outside the project,
// and the cache folder is made private or not used (issue 34 item 6, `npm run mutate -- trust-policy`).
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolboxError } from '../../src/errors.js';
import { loadUserConfig } from '../../src/policy/user-config.js';
import { ownedBySelf, userCacheDir, userConfigDir, userStateDir } from '../../src/util/user-dirs.js';

const asRoot = process.getuid?.() === 0;
const saved = {
  XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
  XDG_STATE_HOME: process.env.XDG_STATE_HOME,
  HOME: process.env.HOME,
};
let base: string;
let cfg: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'toolbox-user-config-'));
  chmodSync(base, 0o755);
  cfg = join(base, 'config');
  mkdirSync(join(cfg, 'toolbox'), { recursive: true, mode: 0o700 });
  process.env.XDG_CONFIG_HOME = cfg;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(base, { recursive: true, force: true });
});
const file = () => join(cfg, 'toolbox', 'config.yaml');
const write = (text: string, mode = 0o600) => {
  writeFileSync(file(), text, { mode });
  chmodSync(file(), mode);
};

describe("the user's config.yaml", () => {
  it('reads the file of the user, with where each key sits', () => {
    write('# mine\nserve:\n  relay: 5\n');
    const u = loadUserConfig();
    expect(u.file).toBe(file());
    expect(u.data).toEqual({ serve: { relay: 5 } });
    expect(u.ignored).toBeUndefined();
    expect(u.locate(['serve', 'relay'])).toMatchObject({ file: file(), line: 3 });
  });

  it('is empty without a file, and for a file that is not a map', () => {
    const none = loadUserConfig();
    expect(none.data).toEqual({});
    expect(none.file).toBeUndefined();
    expect(none.ignored).toBeUndefined();
    write('- a\n- b\n');
    expect(loadUserConfig().data).toEqual({});
    write('just text\n');
    expect(loadUserConfig().data).toEqual({});
  });

  it('is ignored, and says why, when others may write it or its folder', () => {
    write('state: redis://h:1\n', 0o666);
    expect(loadUserConfig()).toMatchObject({ data: {}, ignored: expect.stringContaining('is not yours alone') });
    write('state: redis://h:1\n', 0o600);
    chmodSync(join(cfg, 'toolbox'), 0o777);
    expect(loadUserConfig().ignored).toContain('is not yours alone');
    chmodSync(join(cfg, 'toolbox'), 0o700);
    expect(loadUserConfig().data).toEqual({ state: 'redis://h:1' });
  });

  it.runIf(asRoot)("is ignored when it is another user's", () => {
    write('state: redis://h:1\n');
    chownSync(file(), 4321, 4321);
    expect(loadUserConfig().ignored).toContain('is not yours alone');
  });

  it('is ignored when it lies inside the project, also through a link; a project beside it is fine', () => {
    const project = join(base, 'project');
    mkdirSync(join(project, 'cfg', 'toolbox'), { recursive: true, mode: 0o700 });
    writeFileSync(join(project, 'cfg', 'toolbox', 'config.yaml'), 'state: redis://planted:1\n', { mode: 0o600 });
    process.env.XDG_CONFIG_HOME = join(project, 'cfg');
    expect(loadUserConfig(project)).toMatchObject({
      data: {},
      ignored: expect.stringContaining('lies inside the project'),
    });
    // The project named through a link to it.
    symlinkSync(project, join(base, 'project-link'));
    expect(loadUserConfig(join(base, 'project-link')).ignored).toContain('lies inside the project');
    // Without a project, or for a project elsewhere (a sibling whose name starts the same), it counts.
    expect(loadUserConfig().data).toEqual({ state: 'redis://planted:1' });
    mkdirSync(join(base, 'proj'));
    expect(loadUserConfig(join(base, 'proj')).data).toEqual({ state: 'redis://planted:1' });
    // A project that is the config folder itself.
    expect(loadUserConfig(join(project, 'cfg', 'toolbox', 'config.yaml')).ignored).toContain('inside the project');
  });

  it('refuses YAML it cannot read with user_config_invalid at file:line:column', () => {
    write('serve:\n  relay: [1, 2\n');
    let e: unknown;
    try {
      loadUserConfig();
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(ToolboxError);
    expect((e as ToolboxError).code).toBe('user_config_invalid');
    expect((e as ToolboxError).message).toMatch(new RegExp(`^${file()}:\\d+:\\d+: `));
    expect((e as ToolboxError).exitCode).toBe(3);
  });
});

describe("the user's folders", () => {
  it('take XDG folders only when absolute, else the home folder', () => {
    process.env.XDG_CONFIG_HOME = 'relative';
    process.env.HOME = join(base, 'home');
    expect(userConfigDir()).toBe(join(base, 'home', '.config', 'toolbox'));
    process.env.XDG_CONFIG_HOME = cfg;
    expect(userConfigDir()).toBe(join(cfg, 'toolbox'));
  });

  it('make the cache and state folders private, and tighten one made open', () => {
    process.env.XDG_CACHE_HOME = join(base, 'cache');
    process.env.XDG_STATE_HOME = join(base, 'state');
    const c = userCacheDir()!;
    expect(c).toBe(join(base, 'cache', 'toolbox'));
    expect(statSync(c).mode & 0o777).toBe(0o700);
    chmodSync(c, 0o755);
    expect(userCacheDir()).toBe(c);
    expect(statSync(c).mode & 0o777).toBe(0o700);
    expect(userStateDir()).toBe(join(base, 'state', 'toolbox'));
    expect(statSync(join(base, 'state', 'toolbox')).mode & 0o777).toBe(0o700);
  });

  it('use no cache folder that is a link or a file', () => {
    mkdirSync(join(base, 'elsewhere'), { mode: 0o700 });
    mkdirSync(join(base, 'cache'));
    symlinkSync(join(base, 'elsewhere'), join(base, 'cache', 'toolbox'));
    process.env.XDG_CACHE_HOME = join(base, 'cache');
    expect(userCacheDir()).toBeUndefined();
    process.env.XDG_CACHE_HOME = join(base, 'cache2');
    mkdirSync(join(base, 'cache2'));
    writeFileSync(join(base, 'cache2', 'toolbox'), '');
    expect(userCacheDir()).toBeUndefined();
  });

  it.runIf(asRoot)("use no cache folder of another user, and trust root's or the user's files only", () => {
    mkdirSync(join(base, 'cache', 'toolbox'), { recursive: true, mode: 0o700 });
    chownSync(join(base, 'cache', 'toolbox'), 4321, 4321);
    process.env.XDG_CACHE_HOME = join(base, 'cache');
    expect(userCacheDir()).toBeUndefined();
    writeFileSync(join(base, 'f'), '', { mode: 0o600 });
    expect(ownedBySelf(join(base, 'f'))).toBe(true);
    chownSync(join(base, 'f'), 4321, 4321);
    expect(ownedBySelf(join(base, 'f'))).toBe(false);
    chownSync(join(base, 'f'), 0, 0);
    expect(ownedBySelf(join(base, 'f'), { allowRoot: true })).toBe(true);
  });

  it('trust nothing missing, and nothing writable by group or others', () => {
    expect(ownedBySelf(join(base, 'missing'))).toBe(false);
    writeFileSync(join(base, 'g'), '', { mode: 0o600 });
    chmodSync(join(base, 'g'), 0o620);
    expect(ownedBySelf(join(base, 'g'))).toBe(false);
    chmodSync(join(base, 'g'), 0o644);
    expect(ownedBySelf(join(base, 'g'))).toBe(true);
  });
});

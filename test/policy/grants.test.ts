// The user's grants (policy/grants.ts), condition by condition: which grants file counts, which
// project key matches, which entries are taken, and how a contract's sandbox.paths are judged. Each
// test fails when one of those checks is removed (issue 34 item 6, `npm run mutate -- trust-policy`).
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkSandboxPaths,
  grantFor,
  grantHint,
  grantedNetwork,
  grantedPaths,
  legacyGrantsWarning,
  loadUserGrants,
  sandboxPathsFor,
  type UserGrants,
} from '../../src/policy/grants.js';
import { ToolboxError } from '../../src/errors.js';

let base: string;
let project: string;
let config: string;
const saved = { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, HOME: process.env.HOME };
const root = process.getuid?.() === 0;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'toolbox-grants-')));
  project = join(base, 'project');
  config = join(base, 'config');
  mkdirSync(join(project, 'tools'), { recursive: true });
  mkdirSync(join(project, '.toolbox/envs/py'), { recursive: true });
  mkdirSync(join(config, 'toolbox'), { recursive: true, mode: 0o700 });
  chmodSync(base, 0o755);
  process.env.XDG_CONFIG_HOME = config;
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(base, { recursive: true, force: true });
});

const write = (data: unknown, mode = 0o600) => {
  const f = join(config, 'toolbox', 'grants.yaml');
  writeFileSync(f, typeof data === 'string' ? data : JSON.stringify(data), { mode });
  chmodSync(f, mode);
  return f;
};
const grant = (tools: Record<string, unknown>, key = project) => write({ projects: { [key]: tools } });

describe('which grants file counts', () => {
  it("is the user's own file, read for this project", () => {
    const f = grant({ t: { paths: ['/srv/data'], env: ['API_KEY'], network: ['127.0.0.1:6379'] } });
    const g = loadUserGrants(project);
    expect(g.file).toBe(f);
    expect(g.tools.t).toEqual({ paths: ['/srv/data'], env: ['API_KEY'], network: ['127.0.0.1:6379'] });
    expect(grantedPaths(project, 't')).toEqual(['/srv/data']);
    expect(grantedNetwork(project, 't')).toEqual(['127.0.0.1:6379']);
  });

  it('grants nothing without a file or a config folder', () => {
    expect(loadUserGrants(project)).toEqual({ tools: {}, legacy: [] });
    process.env.XDG_CONFIG_HOME = 'relative/dir';
    process.env.HOME = 'also-relative';
    // A relative XDG folder is ignored (the home folder's is used): still no grants file there for this project.
    expect(loadUserGrants(project).tools).toEqual({});
  });

  it('grants nothing when the file or its folder is writable by others', () => {
    grant({ t: { paths: ['/srv/data'] } });
    chmodSync(join(config, 'toolbox', 'grants.yaml'), 0o666);
    expect(loadUserGrants(project).tools).toEqual({});
    chmodSync(join(config, 'toolbox', 'grants.yaml'), 0o620);
    expect(loadUserGrants(project).tools).toEqual({});
    chmodSync(join(config, 'toolbox', 'grants.yaml'), 0o600);
    chmodSync(join(config, 'toolbox'), 0o777);
    expect(loadUserGrants(project).tools).toEqual({});
    chmodSync(join(config, 'toolbox'), 0o700);
    expect(loadUserGrants(project).tools.t?.paths).toEqual(['/srv/data']);
  });

  it.runIf(root)("grants nothing when the file is another user's", () => {
    const f = grant({ t: { paths: ['/srv/data'] } });
    chownSync(f, 1234, 1234);
    expect(loadUserGrants(project).tools).toEqual({});
    chownSync(f, 0, 0);
    chownSync(join(config, 'toolbox'), 1234, 1234);
    expect(loadUserGrants(project).tools).toEqual({});
  });

  it('grants nothing when the file lies inside the project (or is a link into it)', () => {
    process.env.XDG_CONFIG_HOME = join(project, 'cfg');
    mkdirSync(join(project, 'cfg/toolbox'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(project, 'cfg/toolbox/grants.yaml'),
      JSON.stringify({ projects: { [project]: { t: { paths: ['/x'] } } } }),
      {
        mode: 0o600,
      },
    );
    expect(loadUserGrants(project).tools).toEqual({});
    // The user's folder, with its grants file a link to a file the project ships.
    process.env.XDG_CONFIG_HOME = config;
    symlinkSync(join(project, 'cfg/toolbox/grants.yaml'), join(config, 'toolbox', 'grants.yaml'));
    expect(loadUserGrants(project).tools).toEqual({});
  });

  it('refuses a file that is not YAML with grants_invalid (exit 3) and a hint', () => {
    write('projects: [unclosed\n');
    let e: unknown;
    try {
      loadUserGrants(project);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(ToolboxError);
    expect((e as ToolboxError).code).toBe('grants_invalid');
    expect((e as ToolboxError).exitCode).toBe(3);
  });

  it('reads the file again when its text changes', () => {
    grant({ t: { paths: ['/one'] } });
    expect(loadUserGrants(project).tools.t?.paths).toEqual(['/one']);
    grant({ t: { paths: ['/two'] } });
    expect(loadUserGrants(project).tools.t?.paths).toEqual(['/two']);
  });
});

describe('which project and entries a file grants', () => {
  it("matches the project by real path, a link to it or `~/`, and no other project's key", () => {
    const link = join(base, 'project-link');
    symlinkSync(project, link);
    grant({ t: { paths: ['/via-link'] } }, link);
    expect(loadUserGrants(project).tools.t?.paths).toEqual(['/via-link']);
    // `~/` is the home folder (the process's own: a worker thread cannot change it).
    const inHome = mkdtempSync(join(homedir(), '.toolbox-grants-test-'));
    try {
      grant({ t: { paths: ['/via-home'] } }, `~/${basename(inHome)}`);
      expect(loadUserGrants(inHome).tools.t?.paths).toEqual(['/via-home']);
      expect(loadUserGrants(project).tools).toEqual({});
    } finally {
      rmSync(inHome, { recursive: true, force: true });
    }
    grant({ t: { paths: ['/other'] } }, join(base, 'other-project'));
    expect(loadUserGrants(project).tools).toEqual({});
    // A relative key never matches (it would match whatever folder toolbox runs in).
    grant({ t: { paths: ['/rel'] } }, 'project');
    expect(loadUserGrants(project).tools).toEqual({});
    // A key naming a folder inside the project is not the project.
    grant({ t: { paths: ['/sub'] } }, join(project, 'tools'));
    expect(loadUserGrants(project).tools).toEqual({});
  });

  it('merges two keys naming the same project, and takes only well-formed entries', () => {
    const link = join(base, 'project-link');
    symlinkSync(project, link);
    write({
      projects: {
        [project]: {
          t: {
            paths: ['/a', 'relative', 7],
            env: ['GOOD_1', '1BAD', 'BAD-NAME'],
            network: ['example.com:443', 'bad host', '[::1]:8080'],
          },
        },
        [link]: { t: { paths: ['/b'], env: ['_OK'], network: ['10.0.0.1'] }, u: 'not an object' },
      },
    });
    const g = loadUserGrants(project);
    expect(g.tools.t).toEqual({
      paths: ['/a', '/b'],
      env: ['GOOD_1', '_OK'],
      network: ['example.com:443', '[::1]:8080', '10.0.0.1'],
    });
    expect(g.tools.u).toEqual({ paths: [], env: [], network: [] });
  });

  it('ignores a project entry that is not a map', () => {
    write({ projects: { [project]: ['t'] } });
    expect(loadUserGrants(project).tools).toEqual({});
    write(['not', 'a', 'map']);
    expect(loadUserGrants(project).tools).toEqual({});
  });

  it('ignores the old top-level `tools:` and says where it is', () => {
    write(`# mine\ntools:\n  query_weather: { paths: [/srv] }\nprojects: {}\n`);
    const g = loadUserGrants(project);
    expect(g.tools).toEqual({});
    expect(g.legacy).toEqual(['query_weather']);
    expect(g.legacyLine).toBe(2);
    const w = legacyGrantsWarning(g, project);
    expect(w?.message).toContain("'query_weather' under the old top-level `tools:`");
    expect(w?.hint).toContain(JSON.stringify(project));
    expect(grantHint(g, project, 'query_weather', 'paths: [/srv]')).toContain('no longer read');
    expect(grantHint(g, project, 'other', 'paths: [/srv]')).not.toContain('no longer read');
    grant({ t: {} });
    const clean = loadUserGrants(project);
    expect(clean.legacyLine).toBeUndefined();
    expect(legacyGrantsWarning(clean, project)).toBeUndefined();
  });

  it('gives a tool its own entry and the project\'s "*", nobody else\'s', () => {
    const g: UserGrants = {
      tools: {
        t: { paths: ['/own'], env: ['OWN'], network: ['own.example'] },
        '*': { paths: ['/all'], env: ['ALL'], network: ['all.example'] },
        other: { paths: ['/other'], env: ['OTHER'], network: ['other.example'] },
      },
      legacy: [],
    };
    expect(grantFor(g, 't')).toEqual({
      paths: ['/own', '/all'],
      env: ['OWN', 'ALL'],
      network: ['own.example', 'all.example'],
    });
    expect(grantFor(g, 'x')).toEqual({ paths: ['/all'], env: ['ALL'], network: ['all.example'] });
    expect(grantFor({ tools: {}, legacy: [] }, 't')).toEqual({ paths: [], env: [], network: [] });
  });
});

describe("a contract's sandbox.paths", () => {
  const none: UserGrants = { tools: {}, legacy: [] };

  it('may name folders inside the project, relative or absolute', () => {
    expect(checkSandboxPaths(project, 't', ['tools', join(project, 'tools')], false, none)).toEqual([]);
    expect(sandboxPathsFor(project, 't', ['tools'], false)).toEqual([join(project, 'tools')]);
    expect(sandboxPathsFor(project, 't', [], false)).toEqual([]);
  });

  it('may not leave the project by `..`, even when what it names links back inside', () => {
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(project, 'tools'), join(base, 'outside/back'));
    const [p] = checkSandboxPaths(project, 't', ['../outside/back'], false, none);
    expect(p).toMatchObject({ index: 0, path: '../outside/back', code: 'sandbox_path_outside' });
    expect(p?.message).toContain(`(resolves to ${join(project, 'tools')})`);
    expect(p?.hint).toContain('A contract may bind only paths inside the project');
    // Granted by the user, it may.
    const g: UserGrants = { tools: { t: { paths: [join(base, 'outside')], env: [], network: [] } }, legacy: [] };
    expect(checkSandboxPaths(project, 't', ['../outside/back'], false, g)).toEqual([]);
    // Another tool's grant does not count.
    const other: UserGrants = { tools: { u: { paths: [join(base, 'outside')], env: [], network: [] } }, legacy: [] };
    expect(checkSandboxPaths(project, 't', ['../outside/back'], false, other)).toHaveLength(1);
  });

  it('may not name the project itself, a secret or toolbox state; each with its own message', () => {
    writeFileSync(join(project, '.env'), 'K=v\n');
    const problems = checkSandboxPaths(project, 't', ['.', '.env', '.toolbox/envs/py', 'tools'], false, none);
    expect(problems.map((p) => [p.index, p.code])).toEqual([
      [0, 'sandbox_path_root'],
      [1, 'sandbox_path_secret'],
      [2, 'sandbox_path_state'],
    ]);
    expect(problems[0]?.message).toContain('is the project folder itself');
    expect(problems[1]?.message).toContain('is .env of the project');
    expect(problems[2]?.message).toContain("toolbox's own state folder");
    expect(problems[2]?.hint).not.toContain('grants.yaml');
  });

  it('throws sandbox_path_denied (exit 3) for the first refused entry, with its reason', () => {
    let e: unknown;
    try {
      sandboxPathsFor(project, 't', ['tools', '/etc'], false);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(ToolboxError);
    expect((e as ToolboxError).code).toBe('sandbox_path_denied');
    expect((e as ToolboxError).exitCode).toBe(3);
    expect((e as ToolboxError).message).toContain("tool 't': sandbox.paths '/etc' is outside the project");
    expect((e as ToolboxError).details).toMatchObject({ reason: 'sandbox_path_outside', path: '/etc' });
  });
});

// What of the project a sandboxed process may be shown (util/binds.ts), condition by condition: each
// test below fails when one check of bindProblem / checkProjectBinds / within / secretIn is removed
// (issue 34 item 6, measured with `npm run mutate -- trust-paths`). Real folders, links and sockets.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindProblem, checkProjectBinds, hasSocket, underSystemDir } from '../../src/util/binds.js';
import { below, displayPath, insideRel, within } from '../../src/util/paths.js';
import { isSecretName, secretIn } from '../../src/util/secret-names.js';
import { ToolboxError } from '../../src/errors.js';

let base: string;
let root: string;
let outside: string;
const servers: Server[] = [];

/** A Unix socket listening at `path` (a real one: a folder holding it reaches a service). */
const listen = (path: string) =>
  new Promise<void>((res, rej) => {
    const s = createServer();
    servers.push(s);
    s.once('error', rej);
    s.listen(path, () => res());
  });

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'toolbox-binds-')));
  root = join(base, 'project');
  outside = join(base, 'outside');
  for (const d of [
    'tools/a',
    'apps/web',
    'vendor/lib/.git',
    '.toolbox/envs/py1',
    '.toolbox/servers/s1',
    '.toolbox/lock',
  ])
    mkdirSync(join(root, d), { recursive: true });
  mkdirSync(join(root, '.toolboxx'), { recursive: true });
  mkdirSync(join(root, 'sock'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(root, 'tools/a/tool.py'), 'x = 1\n');
  writeFileSync(join(root, '.env'), 'KEY=secret\n');
  writeFileSync(join(root, 'apps/web/.env.local'), 'KEY=secret\n');
  writeFileSync(join(root, 'vendor/lib/.git/config'), '[remote]\n');
  writeFileSync(join(outside, 'cred'), 'x\n');
  symlinkSync(outside, join(root, 'tools/out-link'));
  symlinkSync(join(root, '.env'), join(root, 'tools/env-link'));
  symlinkSync(join(root, 'tools/a'), join(root, 'tools/in-link'));
  await listen(join(root, 'sock/s.sock'));
});

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(base, { recursive: true, force: true });
});

const none = () => [] as string[];
const closed = { network: false, granted: none, state: 'toolbox-own' as const };

describe('within / insideRel / below (the one "inside that folder")', () => {
  it('holds the folder itself and what lies below it, and nothing beside or above it', () => {
    expect(insideRel('/a/b', '/a/b')).toBe('');
    expect(insideRel('/a/b', '/a/b/c/d')).toBe('c/d');
    expect(insideRel('/a/b', '/a')).toBeUndefined();
    expect(insideRel('/a/b', '/a/bc')).toBeUndefined();
    expect(insideRel('/a/b', '/a/c/d')).toBeUndefined();
    // A name that merely starts with two dots lies inside.
    expect(insideRel('/a/b', '/a/b/..cache')).toBe('..cache');
    expect(within('/a/b', '/a/b')).toBe(true);
    expect(within('/a/b', '/x')).toBe(false);
    expect(below('/a/b', '/a/b')).toBe(false);
    expect(below('/a/b', '/a/b/c')).toBe(true);
    expect(below('/a/b', '/a')).toBe(false);
  });

  it('shows paths inside the working folder relative, others absolute', () => {
    expect(displayPath('/w/p/x.yaml', '/w/p')).toBe('x.yaml');
    expect(displayPath('/w/q/x.yaml', '/w/p')).toBe('/w/q/x.yaml');
    expect(displayPath('/w/p', '/w/p')).toBe('/w/p');
    expect(displayPath('rel/x.yaml', '/w/p')).toBe('rel/x.yaml');
  });
});

describe('secret names at any depth', () => {
  it('are .env* in any case, the credential folders and files, nothing else', () => {
    for (const n of ['.env', '.ENV.local', '.env.production', '.git', '.aws', '.ssh', '.npmrc', '_netrc', '.pgpass'])
      expect(isSecretName(n), n).toBe(true);
    for (const n of ['env', 'x.env', '.gitignore', '.github', 'npmrc', 'aws']) expect(isSecretName(n), n).toBe(false);
  });

  it('are found in any component of a relative path, the first one named', () => {
    expect(secretIn('apps/web/.env.local')).toBe('.env.local');
    expect(secretIn('vendor/lib/.git/config')).toBe('.git');
    expect(secretIn('.aws/credentials')).toBe('.aws');
    expect(secretIn('x/_netrc')).toBe('_netrc');
    expect(secretIn('tools/a/tool.py')).toBeUndefined();
    expect(secretIn('tools/a')).toBeUndefined();
    expect(secretIn('.gitignore')).toBeUndefined();
  });
});

describe('bindProblem', () => {
  it('lets a tool folder inside the project be shown', () => {
    expect(bindProblem(root, join(root, 'tools/a'), closed)).toBeUndefined();
    expect(bindProblem(root, join(root, 'tools/a/tool.py'), closed)).toBeUndefined();
    // A link that stays inside the project is judged by what it resolves to.
    expect(bindProblem(root, join(root, 'tools/in-link'), closed)).toBeUndefined();
  });

  it('needs nothing for the system folders every sandbox shows, and only for those', () => {
    expect(underSystemDir('/usr')).toBe(true);
    expect(underSystemDir('/usr/lib/python3')).toBe(true);
    expect(underSystemDir('/usrx')).toBe(false);
    expect(underSystemDir('/etc')).toBe(false);
    expect(bindProblem(root, '/usr/lib', closed)).toBeUndefined();
    expect(bindProblem(root, '/etc', closed)?.code).toBe('sandbox_path_outside');
  });

  it('refuses what lies outside the project, directly or through a link, unless the user granted it', () => {
    expect(bindProblem(root, outside, closed)).toEqual({ code: 'sandbox_path_outside', resolved: outside });
    expect(bindProblem(root, join(root, 'tools/out-link'), closed)).toEqual({
      code: 'sandbox_path_outside',
      resolved: outside,
    });
    // Beside the project with a name that starts like it is outside too.
    mkdirSync(`${root}-twin`, { recursive: true });
    expect(bindProblem(root, `${root}-twin`, closed)?.code).toBe('sandbox_path_outside');
    const granted = { ...closed, granted: () => [outside] };
    expect(bindProblem(root, join(root, 'tools/out-link'), granted)).toBeUndefined();
    expect(bindProblem(root, join(outside, 'cred'), granted)).toBeUndefined();
    // A grant of something else grants nothing here; a grant of a file below does not grant its folder.
    expect(bindProblem(root, outside, { ...closed, granted: () => [join(base, 'elsewhere')] })?.code).toBe(
      'sandbox_path_outside',
    );
    expect(bindProblem(root, outside, { ...closed, granted: () => [join(outside, 'cred')] })?.code).toBe(
      'sandbox_path_outside',
    );
  });

  it('judges a grant by what it resolves to (a granted link grants its target)', () => {
    const link = join(base, 'grant-link');
    symlinkSync(outside, link);
    expect(bindProblem(root, outside, { ...closed, granted: () => [link] })).toBeUndefined();
  });

  it('refuses the project folder itself unless granted', () => {
    expect(bindProblem(root, root, closed)).toMatchObject({ code: 'sandbox_path_root', resolved: root });
    expect(bindProblem(root, root, { ...closed, granted: () => [root] })).toBeUndefined();
  });

  it("refuses toolbox's own state except its venvs and servers for loaders, and never for sandbox.paths", () => {
    const none_ = { ...closed, state: 'none' as const };
    expect(bindProblem(root, join(root, '.toolbox/lock'), closed)?.code).toBe('sandbox_path_state');
    expect(bindProblem(root, join(root, '.toolbox'), closed)?.code).toBe('sandbox_path_state');
    // The folder of all venvs is not one venv.
    expect(bindProblem(root, join(root, '.toolbox/envs'), closed)?.code).toBe('sandbox_path_state');
    expect(bindProblem(root, join(root, '.toolbox/envs/py1'), closed)).toBeUndefined();
    expect(bindProblem(root, join(root, '.toolbox/servers/s1'), closed)).toBeUndefined();
    expect(bindProblem(root, join(root, '.toolbox/envs/py1'), none_)?.code).toBe('sandbox_path_state');
    // A grant does not open toolbox's own state.
    expect(
      bindProblem(root, join(root, '.toolbox/lock'), { ...closed, granted: () => [join(root, '.toolbox')] })?.code,
    ).toBe('sandbox_path_state');
    // A folder whose name only starts like it is not the state folder.
    expect(bindProblem(root, join(root, '.toolboxx'), none_)).toBeUndefined();
  });

  it('refuses a secret at any depth, and a link to one, unless that path is granted', () => {
    expect(bindProblem(root, join(root, '.env'), closed)).toMatchObject({ code: 'sandbox_path_secret', what: '.env' });
    expect(bindProblem(root, join(root, 'apps/web/.env.local'), closed)).toMatchObject({
      code: 'sandbox_path_secret',
      what: '.env.local',
    });
    expect(bindProblem(root, join(root, 'vendor/lib/.git/config'), closed)?.code).toBe('sandbox_path_secret');
    expect(bindProblem(root, join(root, 'tools/env-link'), closed)).toMatchObject({
      code: 'sandbox_path_secret',
      resolved: join(root, '.env'),
    });
    expect(bindProblem(root, join(root, '.env'), { ...closed, granted: () => [join(root, '.env')] })).toBeUndefined();
    // The grant is only asked for when it is needed (it reads the user's grants file).
    let asked = 0;
    const counting = {
      ...closed,
      granted: () => {
        asked++;
        return [];
      },
    };
    expect(bindProblem(root, join(root, 'tools/a'), counting)).toBeUndefined();
    expect(asked).toBe(0);
  });

  it('refuses a socket, or a folder holding one, while the network is closed', () => {
    expect(hasSocket(join(root, 'sock/s.sock'))).toBe(true);
    expect(hasSocket(join(root, 'sock'))).toBe(true);
    expect(hasSocket(join(root, 'tools/a'))).toBe(false);
    expect(hasSocket(join(root, 'tools/a/tool.py'))).toBe(false);
    expect(hasSocket(join(root, 'missing'))).toBe(false);
    expect(bindProblem(root, join(root, 'sock'), closed)?.code).toBe('sandbox_path_socket');
    expect(bindProblem(root, join(root, 'sock/s.sock'), closed)?.code).toBe('sandbox_path_socket');
    expect(bindProblem(root, join(root, 'sock'), { ...closed, network: true })).toBeUndefined();
    // A granted folder outside holding a socket is still refused with the network closed.
    expect(bindProblem(root, join(root, 'sock'), { ...closed, granted: () => [root] })?.code).toBe(
      'sandbox_path_socket',
    );
  });

  it('sees a socket created in a folder after the folder was first looked at', async () => {
    const d = join(root, 'later');
    mkdirSync(d);
    expect(hasSocket(d)).toBe(false);
    await listen(join(d, 'late.sock'));
    expect(hasSocket(d)).toBe(true);
  });
});

describe('checkProjectBinds', () => {
  const err = (f: () => unknown): ToolboxError => {
    try {
      f();
    } catch (e) {
      return e as ToolboxError;
    }
    throw new Error('expected a refusal');
  };

  it('returns the absolute paths that may be shown, skipping relative ones', () => {
    const ok = [join(root, 'tools/a'), '/usr/lib'];
    expect(checkProjectBinds({ root, paths: [...ok, 'relative/path'] }, false)).toEqual(ok);
  });

  it('refuses with sandbox_path_denied, exit 3, naming the path, what it resolves to and the grant to add', () => {
    const e = err(() => checkProjectBinds({ root, paths: [join(root, 'tools/out-link')], tool: 't1' }, false));
    expect(e).toBeInstanceOf(ToolboxError);
    expect(e.code).toBe('sandbox_path_denied');
    expect(e.exitCode).toBe(3);
    expect(e.message).toContain("tool 't1' would see tools/out-link");
    expect(e.message).toContain(`(it resolves to ${outside})`);
    expect(e.message).toContain('outside the project');
    expect(e.hint).toContain(`grant ${outside} to 't1'`);
    expect(e.details).toMatchObject({ reason: 'sandbox_path_outside', resolved: outside });
  });

  it('names the MCP server when no tool is given, shows outside paths whole and gives the reason a path is shown', () => {
    const e = err(() =>
      checkProjectBinds({ root, paths: [outside], reasons: { [outside]: 'added to sys.path by x.pth' } }, false),
    );
    expect(e.message).toContain(`the MCP server would see ${outside} (added to sys.path by x.pth)`);
    expect(e.message).not.toContain('resolves to');
  });

  it('offers no grant for toolbox state, and a network hint for a socket', () => {
    const state = err(() => checkProjectBinds({ root, paths: [join(root, '.toolbox/lock')], tool: 't' }, false));
    expect(state.message).toContain("toolbox's own state");
    expect(state.hint).not.toContain('grants.yaml');
    const sock = err(() => checkProjectBinds({ root, paths: [join(root, 'sock')], tool: 't' }, false));
    expect(sock.details).toMatchObject({ reason: 'sandbox_path_socket' });
    expect(sock.hint).toContain('open the network');
    expect(checkProjectBinds({ root, paths: [join(root, 'sock')], tool: 't' }, true)).toEqual([join(root, 'sock')]);
    const secret = err(() => checkProjectBinds({ root, paths: [join(root, 'apps/web/.env.local')], tool: 't' }, false));
    expect(secret.message).toContain('which is .env.local of the project');
    const self = err(() => checkProjectBinds({ root, paths: [root], tool: 't' }, false));
    expect(self.message).toContain('would see .,');
  });

  it('judges paths against the real project folder when the project is named through a link', () => {
    const link = join(base, 'project-link');
    symlinkSync(root, link);
    expect(checkProjectBinds({ root: link, paths: [join(link, 'tools/a'), join(root, 'tools/a')] }, false)).toEqual([
      join(link, 'tools/a'),
      join(root, 'tools/a'),
    ]);
  });

  it('asks the user grants only through the function given', () => {
    expect(checkProjectBinds({ root, paths: [outside], granted: () => [outside] }, false)).toEqual([outside]);
  });
});

// Item 3: nothing in the project or the shared temp folder chooses the sandbox or the interpreter.
// Each attack is planted exactly as it worked before (the cache keys computed the way toolbox used
// to), then the real binary runs a tool.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { arch, release } from 'node:os';
import { delimiter, join } from 'node:path';
import { spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, scratch, tiers } from './helpers.js';

const p = project({
  'my_tools/__init__.py': '',
  'my_tools/answer.py': 'def answer():\n    return 42\n',
  'tool_registry/answer.yaml': contract('answer', 'python_function', '{ module: my_tools.answer, function: answer }'),
});
const home = scratch('toolbox-home-');
const shims = scratch('toolbox-shims-');
const mark = join(home.dir, 'PWNED');
afterAll(() => {
  p.cleanup();
  home.cleanup();
  shims.cleanup();
});

/** A program that leaves a mark on the host when it runs, then does what `then` says. */
function evil(name: string, then: string): string {
  const f = join(shims.dir, name);
  writeFileSync(f, `#!/bin/sh\necho "$0 $*" >> ${mark}\n${then}\n`);
  chmodSync(f, 0o755);
  return f;
}

const env = (over: NodeJS.ProcessEnv = {}) => ({
  HOME: home.dir,
  XDG_CACHE_HOME: join(home.dir, '.cache'),
  XDG_CONFIG_HOME: join(home.dir, '.config'),
  ...over,
});
const run = (e: NodeJS.ProcessEnv) => spawnCli(['run', 'answer', '--json'], { cwd: p.dir, env: env(e) });

function which(name: string, pathVar: string): string | undefined {
  for (const d of pathVar.split(delimiter)) {
    const f = join(d, name);
    try {
      if (statSync(f).isFile()) return f;
    } catch {
      /* next */
    }
  }
  return undefined;
}

describe.runIf(tiers.includes('bwrap'))('item 3', () => {
  it('a shipped .toolbox/cache/sandbox.json neither names the "bwrap" nor downgrades the tier', async () => {
    // The key the probe cache used to be checked against (binaries found on PATH, uid, kernel, arch).
    const search = `${process.env.PATH}:/usr/bin:/bin:/usr/sbin:/sbin`;
    const id = (n: string) => {
      const f = which(n, search);
      if (!f) return '-';
      const s = statSync(f);
      return `${f}:${s.size}:${s.mtimeMs}`;
    };
    const key = [
      id('bwrap'),
      id('unshare'),
      id('setpriv'),
      id('prlimit'),
      `uid=${process.getuid!()}`,
      release(),
      arch(),
    ].join('|');
    const fake = evil('bwrap', `exec ${which('bwrap', search)} "$@"`);
    const planted = (works: object, tools: object) => JSON.stringify({ key, tools, works, reasons: {} });
    mkdirSync(join(p.dir, '.toolbox', 'cache'), { recursive: true });
    const file = join(p.dir, '.toolbox', 'cache', 'sandbox.json');
    writeFileSync(
      file,
      planted({ bwrap: true, unshare: true, none: true }, { bwrap: fake, prlimit: which('prlimit', search) }),
    );
    let r = await run({});
    expect(r.code).toBe(0);
    expect(existsSync(mark)).toBe(false);
    expect(JSON.parse(r.stdout).sandbox).toBe('bwrap');
    writeFileSync(file, planted({ bwrap: false, unshare: false, none: true }, {}));
    r = await run({});
    expect([r.code, JSON.parse(r.stdout).sandbox]).toEqual([0, 'bwrap']);
    expect(expected('planted-probe-cache', 'bwrap')).toBe('blocked');
  });

  it('a fake bwrap early on PATH is never run', async () => {
    evil('bwrap', 'exit 0');
    const r = await run({ PATH: `${shims.dir}:${process.env.PATH}` });
    expect([r.code, JSON.parse(r.stdout).result]).toEqual([0, 42]);
    expect(existsSync(mark) ? readFileSync(mark, 'utf8') : '').toBe('');
    expect(expected('fake-bwrap-on-path', 'bwrap')).toBe('blocked');
  });

  it('an interpreter cache planted in the shared temp folder does not pick the Python', async () => {
    // A pyenv layout whose shim marks the host when it runs: toolbox follows it by reading pyenv's
    // version files, never by running it, and no cache (the user's or a planted one) decides.
    const root = join(shims.dir, 'pyenv');
    const realPython = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
      encoding: 'utf8',
    }).trim();
    mkdirSync(join(root, 'shims'), { recursive: true });
    mkdirSync(join(root, 'libexec'));
    mkdirSync(join(root, 'versions', '3.99.1', 'bin'), { recursive: true });
    symlinkSync(realPython, join(root, 'versions', '3.99.1', 'bin', 'python3'));
    writeFileSync(join(root, 'version'), '3.99.1\n');
    const shim = join(root, 'shims', 'python3');
    writeFileSync(shim, `#!/bin/sh\necho "$0 $*" >> ${mark}\nexec ${realPython} "$@"\n`);
    chmodSync(shim, 0o755);
    const fakePython = evil('fake-python', 'echo \'{"ok":true,"result":"PWNED"}\'');
    const tmp = scratch('toolbox-tmp-');
    try {
      const parts = [shim, String(statSync(shim).mtimeMs), '', p.dir];
      writeFileSync(
        join(tmp.dir, `toolbox-interpreters-${process.getuid!()}.json`),
        JSON.stringify({ [parts.join('|')]: { path: fakePython, readOnlyPaths: [shims.dir] } }),
      );
      const r = await run({ PATH: `${join(root, 'shims')}:/usr/bin:/bin`, TMPDIR: tmp.dir });
      expect([r.code, JSON.parse(r.stdout).result]).toEqual([0, 42]);
      expect(existsSync(mark) ? readFileSync(mark, 'utf8') : '').toBe('');
      expect(expected('planted-interpreter-cache', 'bwrap')).toBe('blocked');
    } finally {
      tmp.cleanup();
    }
  });

  it("keeps its own caches in the user's 0700 cache folder, and init ignores .toolbox/", async () => {
    const dir = join(home.dir, '.cache', 'toolbox');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(true);
    const q = scratch();
    try {
      writeFileSync(join(q.dir, '.gitignore'), 'node_modules');
      const r = await spawnCli(['init', '--yes', '--json'], { cwd: q.dir, env: env() });
      expect(r.code).toBe(0);
      expect(readFileSync(join(q.dir, '.gitignore'), 'utf8')).toBe('node_modules\n.toolbox/\n');
    } finally {
      q.cleanup();
    }
  });
});

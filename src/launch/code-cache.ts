// Loads the CLI: dist/cli.cjs (one bundled file, scripts/bundle.mjs), with its compiled code from a
// V8 code cache (measured: about half the CPU time to load it). Node >= 22.1 has a code cache of its
// own (module.enableCompileCache, turned on here): there the bundle is simply required.
// On Node 20 the cache is kept here, the way v8-compile-cache does it: compile with vm.Script and
// `cachedData`, and the first time save what V8 compiled, per kind of command.
//
// The cache is bytecode that will run: it lives only in the user's own cache folder (0700, owned
// by them, like every other toolbox cache), is used only for the exact bundle file it was made from
// (inode, size, modification and change times, Node version and architecture recorded with it),
// and V8 checks it again itself (its version and flags, the source's length) and rejects anything
// else; a rejected or unreadable cache only means a normal compile.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { codePath } from '../util/assets.js';

/** What the bundle exports: main(argv) runs the CLI and resolves to its exit code (src/main.ts). */
export interface Cli {
  main(argv: string[]): Promise<number>;
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** The user's cache folder for this, if it is safely theirs (else no cache at all). */
function cacheDir(): string | undefined {
  const env = process.env;
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home && join(home, '.cache');
  if (!base) return undefined;
  const dir = join(base, 'toolbox', 'v8');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const me = uid();
    for (const d of [dir, dirname(dir)]) {
      const st = lstatSync(d);
      if (!st.isDirectory() || (me !== undefined && st.uid !== me) || (st.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/** FNV-1a of a string, for a short file name per installed copy of toolbox. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The cached code for `key`, or undefined. File layout: one JSON line with the key, then V8's data. */
function readCache(file: string, key: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    const me = uid();
    if (!st.isFile() || (me !== undefined && st.uid !== me) || (st.mode & 0o022) !== 0) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    if (readSync(fd, buf, 0, st.size, 0) !== st.size) return undefined;
    const nl = buf.indexOf(10);
    if (nl < 0 || buf.toString('utf8', 0, nl) !== key) return undefined;
    return buf.subarray(nl + 1);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeCache(file: string, key: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(key + '\n'), data]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing was written */
    }
  }
}

/** Compile and run the bundle with a code cache; returns its exports. */
function loadCached(bundle: string, argv: string[]): Cli {
  const source = readFileSync(bundle, 'utf8');
  const st = statSync(bundle, { bigint: true });
  const key = ['v1', process.version, process.arch, st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join(' ');
  const dir = cacheDir();
  // select and run compile different code: one cache for each, and one for every other command.
  const kind = argv[0] === 'select' || argv[0] === 'run' ? argv[0] : 'other';
  const file = dir && join(dir, `cli-${fnv(bundle)}-${kind}.bin`);
  const cachedData = file ? readCache(file, key) : undefined;
  const wrapper = `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`;
  const script = new Script(wrapper, { filename: bundle, cachedData });
  // The bundle assigns module.exports and requires through `require` only (packages it does not inline).
  const mod = { exports: {} as Cli };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  // Code compiled by vm.Script cannot call import() itself: the bundle routes it here (bundle.mjs).
  const dynamicImport = (s: string) => import(s);
  run(mod.exports, nodeModule.createRequire(bundle), mod, bundle, dirname(bundle), dynamicImport);
  if (!file || (cachedData && !script.cachedDataRejected)) return mod.exports;
  // Saved after the command ran, so what it compiled on the way is in the cache too (measured, CPU
  // time: `run` 60 vs 71 ms, `select` 46 vs 48 ms with a cache saved before the command ran).
  const { main } = mod.exports;
  return {
    main: async (args) => {
      const code = await main(args);
      writeCache(file, key, script.createCachedData());
      return code;
    },
  };
}

/** The CLI, from dist/cli.cjs; `argv` says which kind of command it is for (each has its own cache). */
export function loadCli(argv: string[]): Cli {
  const bundle = codePath('cli.cjs');
  const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
  if (typeof enableCompileCache !== 'function') return loadCached(bundle, argv);
  try {
    enableCompileCache();
  } catch {
    /* the cache is an optimisation only */
  }
  return nodeModule.createRequire(bundle)(bundle) as Cli;
}

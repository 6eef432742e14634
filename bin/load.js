// Loads the CLI: dist/cli.cjs (one bundled file, scripts/bundle.mjs), with its compiled code from a
// V8 code cache (measured: about half the CPU time to load it). Node >= 22.1 has a code cache
// of its own (module.enableCompileCache, turned on by toolbox.js): there the bundle is simply
// required. On Node 20 the cache is kept here, the way v8-compile-cache does it: compile with
// vm.Script and `cachedData`, and the first time save what V8 compiled, per kind of command.
//
// The cache is bytecode that will run: it lives only in the user's own cache folder (0700, owned
// by them, like every other toolbox cache), is used only for the exact bundle file it was made from
// (inode, size, modification and change times, Node version and architecture recorded with it),
// and V8 checks it again itself (its version and flags, the source's length) and rejects anything
// else; a rejected or unreadable cache only means a normal compile.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const BUNDLE = path.join(__dirname, '..', 'dist', 'cli.cjs');

/** The user's cache folder for this, if it is safely theirs (else no cache at all). */
function cacheDir() {
  const env = process.env;
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : require('node:os').homedir();
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home && path.join(home, '.cache');
  if (!base) return undefined;
  const dir = path.join(base, 'toolbox', 'v8');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid ? process.getuid() : undefined;
    for (const d of [dir, path.dirname(dir)]) {
      const st = fs.lstatSync(d);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/** FNV-1a of a string, for a short file name per installed copy of toolbox. */
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The cached code for `key`, or undefined. File layout: one JSON line with the key, then V8's data. */
function readCache(file, key) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const st = fs.fstatSync(fd);
    const uid = process.getuid ? process.getuid() : undefined;
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    if (fs.readSync(fd, buf, 0, st.size, 0) !== st.size) return undefined;
    const nl = buf.indexOf(10);
    if (nl < 0 || buf.toString('utf8', 0, nl) !== key) return undefined;
    return buf.subarray(nl + 1);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(file, key, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(key + '\n'), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* nothing was written */
    }
  }
}

/** Compile and run the bundle with a code cache; returns its exports. */
function loadCached() {
  const vm = require('node:vm');
  const Module = require('node:module');
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const st = fs.statSync(BUNDLE, { bigint: true });
  const key = ['v1', process.version, process.arch, st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join(' ');
  const dir = cacheDir();
  // select and run compile different code: one cache for each, and one for every other command.
  const kind = process.argv[2] === 'select' || process.argv[2] === 'run' ? process.argv[2] : 'other';
  const file = dir && path.join(dir, `cli-${fnv(BUNDLE)}-${kind}.bin`);
  const cachedData = file ? readCache(file, key) : undefined;
  const wrapper = `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: BUNDLE, cachedData });
  const mod = new Module(BUNDLE, module);
  mod.filename = BUNDLE;
  mod.paths = Module._nodeModulePaths(path.dirname(BUNDLE));
  mod.loaded = true;
  const req = Module.createRequire(BUNDLE);
  script.runInThisContext()(mod.exports, req, mod, BUNDLE, path.dirname(BUNDLE), (s) => import(s));
  if (!file || (cachedData && !script.cachedDataRejected)) return mod.exports;
  // Saved after the command ran, so what it compiled on the way is in the cache too (measured, CPU
  // time: `run` 60 vs 71 ms, `select` 46 vs 48 ms with a cache saved before the command ran).
  const { main } = mod.exports;
  return {
    main: async (argv) => {
      const code = await main(argv);
      writeCache(file, key, script.createCachedData());
      return code;
    },
  };
}

/** `{ main }`: main(argv) runs the CLI and resolves to its exit code (dist/main.ts). */
async function loadCli() {
  if (!fs.existsSync(BUNDLE)) return import('../dist/main.js');
  if (typeof require('node:module').enableCompileCache === 'function') return require(BUNDLE);
  return loadCached();
}

module.exports = { loadCli };

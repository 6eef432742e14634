// Credentials at any depth inside a folder the sandbox shows a tool (issue 34 item 3): every entry
// named as util/secret-names.ts lists (`.env*`, `.git/`, `.npmrc`, `.aws/`, …) below a bound folder is
// covered before the tool starts, a file by an empty file and a folder by an empty read-only tmpfs, so
// `apps/web/.env.local` or `vendor/lib/.git/config` inside a tool's package folder reads as empty.
// A path bound on purpose (the user's grant of that exact path) is not covered.
//
// Installed package trees are not searched: `node_modules` and a virtual environment (a folder with a
// `pyvenv.cfg`) hold what a package manager installed, not the user's credentials, and walking them on
// every cold call would cost more than the call (40,000 entries: ~0.3 s). A secret name directly at
// their top is still covered. The walk stops at MAX_ENTRIES: a larger folder is refused, since what
// it holds cannot be checked (docs/sandbox.md "Secrets inside bound folders").
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ExitCode, ToolboxError } from '../errors.js';
import { isSecretName } from '../util/secret-names.js';

/** The most entries looked at, over every bound folder of one call. */
export const MAX_ENTRIES = 50_000;

/** Folders whose contents are an installed package tree: looked at one level deep only. */
const PACKAGE_TREES = new Set(['node_modules', 'site-packages', 'dist-packages', '__pycache__']);

/** One secret entry to cover: its path as the tool sees it, and whether it is a folder. */
export interface Masked {
  path: string;
  dir: boolean;
}

interface Memo {
  /** Every folder walked with its mtime and ctime: an entry added or renamed in any of them changes it. */
  dirs: Map<string, number>;
  found: Masked[];
  seen: number;
}

// serve and the daemon make many calls: a folder whose walked folders are all unchanged is not walked
// again (a stat per folder instead of a readdir of every entry).
const memo = new Map<string, Memo>();

const stamp = (p: string): number | undefined => {
  try {
    const st = lstatSync(p);
    return st.isDirectory() ? st.mtimeMs * 1e3 + st.ctimeMs : undefined;
  } catch {
    return undefined;
  }
};

function fresh(m: Memo): boolean {
  for (const [d, s] of m.dirs) if (stamp(d) !== s) return false;
  return true;
}

const isVenv = (entries: Dirent[]) => entries.some((e) => e.name === 'pyvenv.cfg' && e.isFile());

/**
 * Walk the real folder `src` (shown to the tool at `shown`): its secret entries (not descending into
 * them), at most `budget` entries looked at. Links are not followed: a link to a secret inside the
 * folder shows the covered target; one to anywhere else leads outside what the sandbox shows.
 */
function walk(src: string, shown: string, budget: number): Memo {
  const m: Memo = { dirs: new Map(), found: [], seen: 0 };
  const stack: [string, string, boolean][] = [[src, shown, PACKAGE_TREES.has(basename(src))]];
  while (stack.length) {
    const [dir, at, shallow] = stack.pop()!;
    const s = stamp(dir);
    if (s === undefined) continue;
    m.dirs.set(dir, s);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable to toolbox: bwrap shows it unreadable too
    }
    m.seen += entries.length;
    if (m.seen > budget) return m;
    const tree = shallow || isVenv(entries);
    for (const e of entries) {
      if (isSecretName(e.name)) {
        // A link named like a secret is covered as a file (what it points to is not looked at), and
        // so is a file named like a secret folder (a submodule's or worktree's `.git` file): bwrap
        // cannot mount a folder over a file.
        m.found.push({ path: join(at, e.name), dir: e.isDirectory() });
        continue;
      }
      if (!e.isDirectory() || tree) continue;
      stack.push([join(dir, e.name), join(at, e.name), PACKAGE_TREES.has(e.name)]);
    }
  }
  return m;
}

/**
 * The secret entries below each bound folder, as the tool sees them, minus any path bound itself or
 * asked for (`asked`: every path the sandbox binds, one inside a bound folder included; a secret name
 * among them got past binds.ts only by the user's grant of exactly that path). `binds` are [real
 * source, path in the sandbox] pairs.
 */
export function secretMasks(binds: [string, string][], asked: string[] = [], limit = MAX_ENTRIES): Masked[] {
  const out: Masked[] = [];
  let budget = limit;
  const bound = new Set([...binds.map(([, p]) => p), ...asked]);
  for (const [src, shown] of binds) {
    if (stamp(src) === undefined) continue; // a file: binds.ts already refused a secret name
    const key = `${src}\0${shown}`;
    let m = memo.get(key);
    if (!m || !fresh(m)) {
      m = walk(src, shown, budget);
      if (m.seen <= budget) memo.set(key, m);
    }
    budget -= m.seen;
    if (budget < 0)
      throw new ToolboxError(
        'sandbox_path_too_large',
        `The folders shown to the tool hold more than ${limit} entries (at '${shown}'), too many to check for credentials (.env*, .git, .npmrc, …) before each call; refused`,
        {
          exitCode: ExitCode.registry,
          hint: 'Bind a narrower folder (sandbox.paths, or the tool in a package folder of its own); installed package trees (node_modules, a venv) are not counted.',
          details: { path: shown },
        },
      );
    for (const f of m.found) if (!bound.has(f.path) && ![...bound].some((b) => b.startsWith(f.path + '/'))) out.push(f);
  }
  return out;
}

let emptyFile: string | undefined;

/** An empty read-only file of toolbox's own (bound over a secret file: it reads as empty, like /dev/null). */
function empty(): string {
  if (emptyFile) return emptyFile;
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-mask-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'empty');
  writeFileSync(file, '', { mode: 0o444 });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (emptyFile = file);
}

/** bwrap arguments covering `masks` (after the binds): an empty file over a file, an empty read-only tmpfs
 * over a folder. */
export function maskArgs(masks: Masked[]): string[] {
  const a: string[] = [];
  for (const m of masks) {
    if (m.dir) a.push('--tmpfs', m.path, '--remount-ro', m.path);
    else a.push('--ro-bind', empty(), m.path);
  }
  return a;
}

// util/state.ts, condition by condition: each test fails when one ownership, kind or containment
// check of `.toolbox/` is removed (issue 34 item 6, `npm run mutate -- trust-state`). Real folders,
// links, FIFOs, hard links and (as root) files of another user.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolboxError } from '../../src/errors.js';
import {
  appendState,
  cachePath,
  checkState,
  isStateUnsafe,
  listState,
  noteUnsafeCache,
  readState,
  removeState,
  renameState,
  stateError,
  stateFolder,
  statePath,
  statState,
  takeStateWarnings,
  writeState,
} from '../../src/util/state.js';

const asRoot = process.geteuid?.() === 0;
let root: string;
let state: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolbox-state-checks-'));
  chmodSync(root, 0o755);
  state = join(root, '.toolbox');
  takeStateWarnings();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The error a call throws (a ToolboxError), or undefined. */
const thrown = (fn: () => unknown): ToolboxError | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e as ToolboxError;
  }
};

describe('paths under .toolbox/', () => {
  it('refuses an empty path and any `..` part, and ignores `.` and repeated separators', () => {
    expect(() => statePath(state, '')).toThrow(/bad state path/);
    expect(() => statePath(state, './.')).toThrow(/bad state path/);
    expect(() => statePath(state, '../x')).toThrow(/bad state path/);
    expect(() => statePath(state, 'a/../../x')).toThrow(/bad state path/);
    expect(() => removeState(state, '../x')).toThrow(/bad state path/);
    expect(statePath(state, './results//a.txt', { create: true })).toBe(join(state, 'results', 'a.txt'));
  });

  it('makes folders only when asked: a missing one answers undefined', () => {
    expect(statePath(state, 'results/a.txt')).toBeUndefined();
    expect(stateFolder(state, 'results')).toBeUndefined();
    expect(stateFolder(state, '.')).toBeUndefined();
    expect(stateFolder(state, '')).toBeUndefined();
    expect(statState(state, 'results/a.txt')).toBeUndefined();
    expect(listState(state, 'results')).toEqual([]);
    expect(readState(state, 'results/a.txt')).toBeUndefined();
    // Nothing was made on the way.
    expect(() => readFileSync(state)).toThrow();
    expect(stateFolder(state, '.', true)).toBe(state);
    expect(stateFolder(state, 'results', true)).toBe(join(state, 'results'));
    writeState(state, 'results/a.txt', 'x');
    expect(statState(state, 'results/a.txt')?.isFile()).toBe(true);
  });

  it('removes nothing when a folder on the way is missing, and a file only once', () => {
    removeState(state, 'results/a.txt');
    expect(existsSync(state)).toBe(false);
    expect(cachePath(state, 'cache/index.bin')).toBeUndefined();
    expect(existsSync(state)).toBe(false);
    writeState(state, 'results/a.txt', 'x');
    removeState(state, 'results/a.txt');
    removeState(state, 'results/a.txt');
    expect(listState(state, 'results')).toEqual([]);
    // A folder where a file is removed is not an ENOENT: the error is kept.
    mkdirSync(join(state, 'results', 'sub'));
    expect(() => removeState(state, 'results/sub')).toThrow();
  });

  it('appends to, and renames into, folders it makes', () => {
    appendState(state, 'logs/calls.jsonl', 'one\n');
    expect(readState(state, 'logs/calls.jsonl')?.toString()).toBe('one\n');
    renameState(state, 'logs/calls.jsonl', 'archive/2026/calls.jsonl');
    expect(listState(state, 'archive/2026')).toEqual(['calls.jsonl']);
  });

  it('renames only an existing entry', () => {
    renameState(state, 'calls.jsonl', 'calls.1.jsonl');
    expect(listState(state, '.')).toEqual([]);
    writeState(state, 'calls.jsonl', 'a');
    renameState(state, 'calls.jsonl', 'calls.1.jsonl');
    expect(listState(state, '.')).toEqual(['calls.1.jsonl']);
  });
});

describe('what an entry must be', () => {
  it('a file entry that is a folder, a FIFO or a hard link is refused, with its reason', () => {
    mkdirSync(join(state, 'sessions'), { recursive: true });
    expect(thrown(() => statePath(state, 'sessions'))?.message).toContain('is a folder, not a file');
    execFileSync('mkfifo', [join(state, 'pipe')]);
    const fifo = thrown(() => readState(state, 'pipe'));
    expect(fifo?.code).toBe('state_unsafe');
    expect(fifo?.message).toContain('is not a regular file');
    writeFileSync(join(root, 'other'), 'mine');
    linkSync(join(root, 'other'), join(state, 'hard.json'));
    expect(thrown(() => statePath(state, 'hard.json'))?.message).toContain('other hard links');
    // A folder entry that is a file is refused; with a trailing slash checkState asks for a folder.
    writeFileSync(join(state, 'results'), '');
    expect(thrown(() => checkState(state, ['results/']))?.message).toContain('is not a folder');
    expect(thrown(() => checkState(state, ['results']))).toBeUndefined();
    expect(thrown(() => checkState(state, ['sessions/']))).toBeUndefined();
  });

  it('a link is refused and named with its target', () => {
    mkdirSync(state);
    symlinkSync('/etc/passwd', join(state, 'calls.jsonl'));
    const e = thrown(() => readState(state, 'calls.jsonl'));
    expect(e?.message).toContain('is a symbolic link to /etc/passwd');
    expect(e?.exitCode).toBe(3);
    expect(e?.hint).toContain('Remove it');
  });

  it('a file or folder writable by every user, or by a group not ours, is refused', () => {
    mkdirSync(join(state, 'results'), { recursive: true });
    writeFileSync(join(state, 'breaker.json'), '{}');
    chmodSync(join(state, 'breaker.json'), 0o646);
    expect(thrown(() => readState(state, 'breaker.json'))?.message).toContain('writable by every user');
    chmodSync(join(state, 'breaker.json'), 0o644);
    chmodSync(join(state, 'results'), 0o777);
    expect(thrown(() => statePath(state, 'results/a.txt'))?.message).toContain('writable by every user');
    chmodSync(join(state, 'results'), 0o775);
    // Group-writable by our own group is the user's own choice (umask 002).
    expect(thrown(() => statePath(state, 'results/a.txt'))).toBeUndefined();
  });

  it.runIf(asRoot)('a group-writable entry of another group is refused', () => {
    writeState(state, 'breaker.json', '{}');
    chownSync(join(state, 'breaker.json'), 0, 4321);
    chmodSync(join(state, 'breaker.json'), 0o664);
    expect(thrown(() => readState(state, 'breaker.json'))?.message).toContain('is writable by group 4321');
    chmodSync(join(state, 'breaker.json'), 0o644);
    expect(readState(state, 'breaker.json')?.toString()).toBe('{}');
  });

  it.runIf(asRoot)('an entry or folder of another user is refused, and the hint says whose it is', () => {
    writeState(state, 'breaker.json', '{}');
    chownSync(join(state, 'breaker.json'), 4321, 4321);
    const e = thrown(() => readState(state, 'breaker.json'));
    expect(e?.message).toContain('belongs to uid 4321, not to you (uid 0)');
    expect(e?.hint).toContain('Run toolbox as the user who owns');
    chownSync(join(state, 'breaker.json'), 0, 0);
    chownSync(state, 4321, 4321);
    expect(thrown(() => statePath(state, 'breaker.json'))?.message).toContain('belongs to uid 4321');
  });
});

describe('the project folder above .toolbox/', () => {
  it('may not be writable by others, unless it is sticky like /tmp', () => {
    chmodSync(root, 0o777);
    const e = thrown(() => writeState(state, 'a.json', '{}'));
    expect(e?.code).toBe('state_unsafe');
    expect(e?.message).toContain('is writable by other users');
    expect(e?.hint).toContain('chmod go-w');
    expect(thrown(() => stateFolder(state, '.'))?.code).toBe('state_unsafe');
    chmodSync(root, 0o1777);
    expect(thrown(() => writeState(state, 'a.json', '{}'))).toBeUndefined();
    chmodSync(root, 0o755);
  });

  it('is not needed to exist for a read (nothing to check, nothing there)', () => {
    const gone = join(root, 'missing-project', '.toolbox');
    expect(statePath(gone, 'a.json')).toBeUndefined();
  });

  it.runIf(asRoot)('may belong to root or to the user, not to another user', () => {
    chownSync(root, 4321, 4321);
    const e = thrown(() => statePath(state, 'a.json'));
    expect(e?.message).toContain(`the project folder ${root} belongs to uid 4321`);
    expect(e?.hint).toContain(`Run toolbox as the user who owns ${root}`);
    chownSync(root, 0, 4321);
    chmodSync(root, 0o775);
    const g = thrown(() => statePath(state, 'a.json'));
    expect(g?.message).toContain('is writable by other users');
    chmodSync(root, 0o755);
    expect(thrown(() => statePath(state, 'a.json'))).toBeUndefined();
  });
});

describe('reading within a bound', () => {
  it('reads a file of exactly the bound, and nothing of a larger one', () => {
    writeState(state, 'a.json', 'x'.repeat(100));
    expect(readState(state, 'a.json', 100)?.length).toBe(100);
    expect(readState(state, 'a.json', 99)).toBeUndefined();
    expect(readState(state, 'a.json')?.toString()).toBe('x'.repeat(100));
    writeState(state, 'empty.json', '');
    expect(readState(state, 'empty.json')?.length).toBe(0);
  });

  it('reads a file larger than its first buffer whole', () => {
    const big = 'y'.repeat(300_000);
    writeState(state, 'big.txt', big);
    expect(readState(state, 'big.txt')?.toString()).toBe(big);
  });
});

describe('caches are hints', () => {
  it('an unsafe cache entry is skipped with one warning; any other error is not swallowed', () => {
    mkdirSync(state);
    symlinkSync('/etc', join(state, 'cache'));
    expect(cachePath(state, 'cache/index.bin')).toBeUndefined();
    expect(cachePath(state, 'cache/index.bin')).toBeUndefined();
    const w = takeStateWarnings();
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('is a symbolic link to /etc');
    expect(w[0]).toMatch(/; the cache there is ignored\. Remove it/);
    expect(takeStateWarnings()).toEqual([]);
    expect(noteUnsafeCache(new Error('disk full'))).toBe(false);
    expect(noteUnsafeCache(Object.assign(new Error('x'), { code: 'state_unsafe' }))).toBe(false);
    expect(isStateUnsafe(new ToolboxError('other', 'x'))).toBe(false);
    expect(isStateUnsafe(stateError(state, join(state, 'a'), 'is a folder'))).toBe(true);
    expect(cachePath(state, 'fresh/index.bin', true)).toBe(join(state, 'fresh', 'index.bin'));
  });

  it('names an entry relative to the project, and .toolbox/ itself by its name', () => {
    expect(stateError(state, join(state, 'calls.jsonl'), 'is odd').message).toMatch(/^\.toolbox\/calls\.jsonl in /);
    expect(stateError(state, root, 'is odd').message).toMatch(new RegExp(`^${root.split('/').pop()} in `));
  });
});

// sandbox/mask.ts, condition by condition: which entries of a shown folder are covered, what is not
// searched, when an earlier walk is reused, and the bound on entries (issue 34 item 6,
// `npm run mutate -- trust-paths`). Real folders and links; no sandbox needed to see the list.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretMasks } from '../../src/sandbox/mask.js';
import { ToolboxError } from '../../src/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolbox-mask-checks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (rel: string, text = 'x') => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
const masks = (asked: string[] = [], limit?: number) =>
  secretMasks([[dir, '/tool']], asked, limit)
    .map((m) => `${m.path}${m.dir ? '/' : ''}`)
    .sort();

describe('secretMasks', () => {
  it('covers secrets at any depth, folders as folders, a link named like one as a file', () => {
    put('apps/web/.env.local');
    put('vendor/lib/.git/config');
    put('src/main.py');
    symlinkSync('/etc', join(dir, 'src', '.aws'));
    // A submodule's `.git` is a file: covered by a file (a folder cannot be mounted over it).
    put('mod/.git', 'gitdir: ../.git/modules/mod\n');
    expect(masks()).toEqual([
      '/tool/apps/web/.env.local',
      '/tool/mod/.git',
      '/tool/src/.aws',
      '/tool/vendor/lib/.git/',
    ]);
  });

  it('looks one level into installed package trees and venvs, and no deeper', () => {
    put('node_modules/.npmrc');
    put('node_modules/pkg/.env');
    put('venv/pyvenv.cfg');
    put('venv/.env');
    put('venv/lib/.env');
    put('plain/lib/.env');
    expect(masks()).toEqual(['/tool/node_modules/.npmrc', '/tool/plain/lib/.env', '/tool/venv/.env']);
  });

  it('a folder named pyvenv.cfg does not make a venv: its folder is searched', () => {
    mkdirSync(join(dir, 'notvenv/pyvenv.cfg'), { recursive: true });
    put('notvenv/sub/.env');
    expect(masks()).toEqual(['/tool/notvenv/sub/.env']);
  });

  it('leaves out a path the user granted exactly, and a secret folder with a granted path below it', () => {
    put('.env');
    put('.git/hooks/pre-commit');
    put('a/.npmrc');
    expect(masks(['/tool/.env', '/tool/.git/hooks'])).toEqual(['/tool/a/.npmrc']);
    // A granted path that merely ends like a secret's does not count.
    expect(masks(['/elsewhere/tool/.env'])).toEqual(['/tool/.env', '/tool/.git/', '/tool/a/.npmrc']);
  });

  it('walks again when a folder it walked changed (a secret added later is covered)', () => {
    put('deep/er/file.txt');
    expect(masks()).toEqual([]);
    put('deep/er/.env');
    expect(masks()).toEqual(['/tool/deep/er/.env']);
  });

  it('refuses more entries than its bound, and a refused walk is not kept for the next call', () => {
    for (let i = 0; i < 30; i++) put(`f${i}.txt`);
    put('sub/.env');
    let e: unknown;
    try {
      masks([], 10);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(ToolboxError);
    expect((e as ToolboxError).code).toBe('sandbox_path_too_large');
    expect((e as ToolboxError).exitCode).toBe(3);
    // Within a wide enough bound the same folder is walked whole.
    expect(masks()).toEqual(['/tool/sub/.env']);
    // 32 entries in all (31 at the top, 1 below): exactly the bound passes, one less is refused.
    expect(masks([], 32)).toEqual(['/tool/sub/.env']);
    expect(() => masks([], 31)).toThrow(ToolboxError);
  });

  it('skips a bound file (binds.ts judged its name)', () => {
    put('one.txt');
    expect(secretMasks([[join(dir, 'one.txt'), '/tool/one.txt']])).toEqual([]);
  });
});

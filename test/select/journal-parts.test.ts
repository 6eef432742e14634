// journal.ts on its own: what the journal records, when it is believed, and the verifier's throttle.
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../src/config.js';
import { changedFolders, setResidentVerifier, verifyInBackground, writeJournal } from '../../src/select/journal.js';
import { tempProject } from '../helpers.js';

let p: ReturnType<typeof tempProject>;
let project: Project;
let index: string;
const journal = () => JSON.parse(readFileSync(join(project.stateDir, 'cache', 'select-dirs.json'), 'utf8'));
const age = (path: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
  return statSync(path).mtimeMs;
};

beforeEach(() => {
  p = tempProject({
    'tool_registry/a/x.yaml': '',
    'tool_registry/b/y.yaml': '',
    '.toolbox/cache/select-index.bin': 'abc',
  });
  project = { root: p.dir, registryDir: join(p.dir, 'tool_registry'), stateDir: join(p.dir, '.toolbox'), config: {} };
  index = join(project.stateDir, 'cache', 'select-index.bin');
});
afterEach(() => p.cleanup());

describe('writeJournal', () => {
  it('records the index file’s size and mtime, and each folder’s mtime (-1: missing or changed in the last 2 s)', () => {
    const root = age(project.registryDir, 60_000);
    const a = age(join(project.registryDir, 'a'), 2_500);
    age(join(project.registryDir, 'b'), 1_000);
    const ix = statSync(index);
    writeJournal(project, index, ['', 'a', 'b', 'gone']);
    expect(journal()).toEqual({ index: [3, ix.mtimeMs], dirs: ['', 'a', 'b', 'gone'], mtime: [root, a, -1, -1] });
  });

  it('trusts a folder only when it changed more than 2,000 ms before the look (exactly 2,000: racy)', () => {
    const a = age(join(project.registryDir, 'a'), 60_000);
    writeJournal(project, index, ['a'], a + 2_000);
    expect(journal().mtime).toEqual([-1]);
    writeJournal(project, index, ['a'], a + 2_001);
    expect(journal().mtime).toEqual([a]);
    writeJournal(project, index, ['a'], a - 1); // changed after the look
    expect(journal().mtime).toEqual([-1]);
  });

  it('writes nothing without the index file', () => {
    writeJournal(project, join(project.stateDir, 'cache', 'none.bin'), ['']);
    expect(existsSync(join(project.stateDir, 'cache', 'select-dirs.json'))).toBe(false);
  });
});

describe('changedFolders', () => {
  it('says which folders changed since, for the index file the journal describes', () => {
    mkdirSync(join(project.registryDir, 'c'));
    for (const d of ['', 'a', 'b', 'c']) age(join(project.registryDir, d), 60_000);
    writeJournal(project, index, ['', 'a', 'b', 'c']);
    expect(changedFolders(project, index)).toEqual({
      dirs: ['', 'a', 'b', 'c'],
      changed: [false, false, false, false],
    });
    writeFileSync(join(project.registryDir, 'b', 'new.yaml'), ''); // a file created: b's mtime moves
    age(join(project.registryDir, 'c'), 30_000); // any other mtime counts too
    expect(changedFolders(project, index)).toEqual({ dirs: ['', 'a', 'b', 'c'], changed: [false, false, true, true] });
  });

  it('never trusts a folder recorded as racy or missing', () => {
    age(project.registryDir, 60_000);
    writeJournal(project, index, ['', 'a', 'gone']); // a: just created, racy
    age(join(project.registryDir, 'a'), 60_000);
    expect(changedFolders(project, index)!.changed).toEqual([false, true, true]);
    writeJournal(project, index, ['', 'a', 'gone']); // a: now recorded with its mtime
    expect(changedFolders(project, index)!.changed).toEqual([false, false, true]);
    // A folder recorded with its mtime, deleted since.
    rmSync(join(project.registryDir, 'a'), { recursive: true });
    expect(changedFolders(project, index)!.changed).toEqual([true, true, true]);
    mkdirSync(join(project.registryDir, 'gone')); // (its parent changed too)
    expect(changedFolders(project, index)!.changed).toEqual([true, true, true]);
  });

  it('is undefined without a journal, with a broken one, or when the index file is another one', () => {
    expect(changedFolders(project, index)).toBeUndefined();
    age(project.registryDir, 60_000);
    writeJournal(project, index, ['']);
    expect(changedFolders(project, index)).toBeDefined();
    const ix = statSync(index);
    writeFileSync(index, 'abd'); // same size, new mtime
    utimesSync(index, ix.atime, new Date(ix.mtimeMs + 5_000));
    expect(changedFolders(project, index)).toBeUndefined();
    writeJournal(project, index, ['']);
    expect(changedFolders(project, index)).toBeDefined();
    const now = statSync(index);
    writeFileSync(index, 'abcd'); // other size, same mtime
    utimesSync(index, now.atime, now.mtime);
    expect(changedFolders(project, index)).toBeUndefined();
    expect(changedFolders(project, join(project.stateDir, 'cache', 'none.bin'))).toBeUndefined();
    writeFileSync(join(project.stateDir, 'cache', 'select-dirs.json'), '{not json');
    expect(changedFolders(project, index)).toBeUndefined();
  });
});

describe('verifyInBackground', () => {
  const marker = () => join(project.stateDir, 'cache', 'select-verified');
  it('marks each start, and starts again only 3 s after the last one', () => {
    expect(existsSync(marker())).toBe(false);
    verifyInBackground(project);
    expect(existsSync(marker())).toBe(true);
    const recent = age(marker(), 2_000);
    verifyInBackground(project);
    expect(statSync(marker()).mtimeMs).toBe(recent);
    const old = age(marker(), 3_500);
    verifyInBackground(project);
    expect(statSync(marker()).mtimeMs).toBeGreaterThan(old + 3_000);
  });

  it('in a resident process, hands the project to its verifier, under the same throttle', () => {
    const seen: Project[] = [];
    setResidentVerifier((pr) => seen.push(pr));
    try {
      verifyInBackground(project);
      verifyInBackground(project); // within 3 s: not again
      age(marker(), 3_500);
      verifyInBackground(project);
      verifyInBackground({ ...project, stateDir: join(p.dir, 'no', 'such') }); // unmarkable: never handed over
    } finally {
      setResidentVerifier(undefined);
    }
    expect(seen).toEqual([project, project]);
  });

  it('never throws (no cache folder to mark)', () => {
    const elsewhere = { ...project, stateDir: join(p.dir, 'no', 'such') };
    expect(() => verifyInBackground(elsewhere)).not.toThrow();
    expect(existsSync(join(elsewhere.stateDir, 'cache', 'select-verified'))).toBe(false);
  });
});

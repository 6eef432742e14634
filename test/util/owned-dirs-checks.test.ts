// util/owned-dirs.ts, condition by condition: a record counts only for that very folder (device and
// inode), never for a file, a link or a folder made again; a store that is not a map counts for
// nothing (issue 34 item 6, `npm run mutate -- trust-paths`).
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderIdentity, ownedRecord, recordOwned } from '../../src/util/owned-dirs.js';

let base: string;
let cache: string;
const saved = process.env.XDG_CACHE_HOME;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'toolbox-owned-'));
  cache = join(base, 'cache');
  process.env.XDG_CACHE_HOME = cache;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  rmSync(base, { recursive: true, force: true });
});
const store = () => join(cache, 'toolbox', 'owned-test.json');

describe('owned folders', () => {
  it('a file or a link to a folder has no identity; a missing folder none either', () => {
    mkdirSync(join(base, 'real'));
    writeFileSync(join(base, 'file'), '');
    symlinkSync(join(base, 'real'), join(base, 'link'));
    expect(folderIdentity(join(base, 'real'))?.real).toBe(join(base, 'real'));
    expect(folderIdentity(join(base, 'file'))).toBeUndefined();
    expect(folderIdentity(join(base, 'link'))).toBeUndefined();
    expect(folderIdentity(join(base, 'missing'))).toBeUndefined();
    expect(recordOwned('owned-test.json', join(base, 'missing'), {})).toBe(false);
    expect(recordOwned('owned-test.json', join(base, 'link'), {})).toBe(false);
    expect(ownedRecord('owned-test.json', join(base, 'link'))).toBeUndefined();
  });

  it('a record with another inode or device is not this folder', () => {
    const d = join(base, 'env');
    mkdirSync(d);
    expect(recordOwned('owned-test.json', d, { python: '/usr/bin/python3' })).toBe(true);
    expect(ownedRecord('owned-test.json', d)?.python).toBe('/usr/bin/python3');
    const st = lstatSync(d);
    const all = JSON.parse(readFileSync(store(), 'utf8'));
    all[d].ino = st.ino + 1;
    writeFileSync(store(), JSON.stringify(all));
    expect(ownedRecord('owned-test.json', d)).toBeUndefined();
    all[d].ino = st.ino;
    all[d].dev = st.dev + 1;
    writeFileSync(store(), JSON.stringify(all));
    expect(ownedRecord('owned-test.json', d)).toBeUndefined();
  });

  it('a store that is not a JSON map counts for nothing, and is replaced on the next record', () => {
    const d = join(base, 'env');
    mkdirSync(d);
    mkdirSync(join(cache, 'toolbox'), { recursive: true, mode: 0o700 });
    const st = lstatSync(d);
    for (const text of [JSON.stringify([{ dev: st.dev, ino: st.ino }]), 'null', '"x"', '{not json']) {
      writeFileSync(store(), text);
      expect(ownedRecord('owned-test.json', d)).toBeUndefined();
    }
    // An array store indexed by a folder's path would still be read as a map: '0' is no folder.
    writeFileSync(store(), JSON.stringify([{ dev: st.dev, ino: st.ino }]));
    expect(recordOwned('owned-test.json', d, {})).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(store(), 'utf8')))).toEqual([d]);
  });

  it('drops the records of folders that are gone when it records another', () => {
    const a = join(base, 'a');
    const b = join(base, 'b');
    mkdirSync(a);
    mkdirSync(b);
    recordOwned('owned-test.json', a, {});
    rmSync(a, { recursive: true });
    recordOwned('owned-test.json', b, {});
    expect(Object.keys(JSON.parse(readFileSync(store(), 'utf8')))).toEqual([b]);
    // The records of folders still there are kept.
    const c = join(base, 'c');
    mkdirSync(c);
    recordOwned('owned-test.json', c, {});
    expect(Object.keys(JSON.parse(readFileSync(store(), 'utf8'))).sort()).toEqual([b, c]);
    expect(ownedRecord('owned-test.json', b)).toBeDefined();
  });
});

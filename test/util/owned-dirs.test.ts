// Folders toolbox fills itself: recorded in the user's cache by identity, hashed whole, built fresh.
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFresh } from '../../src/util/fresh-dir.js';
import { ownedRecord, recordOwned } from '../../src/util/owned-dirs.js';
import { treeHash, treeHashCached } from '../../src/util/tree-hash.js';
import { safeNpmrcLines } from '../../src/mcp/npm-config.js';
import { tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
let saved: string | undefined;
afterEach(() => {
  cleanup?.();
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

function setup() {
  const p = tempProject();
  cleanup = p.cleanup;
  saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(p.dir, 'cache');
  return p;
}

describe('recordOwned / ownedRecord', () => {
  it('knows the very folder it recorded, not one made again, copied or linked at that path', () => {
    const p = setup();
    const d = join(p.dir, 'env');
    mkdirSync(d);
    expect(ownedRecord('t.json', d)).toBeUndefined();
    expect(recordOwned('t.json', d, { nonce: 'n1' })).toBe(true);
    expect(ownedRecord('t.json', d)).toMatchObject({ nonce: 'n1' });
    expect(readFileSync(join(p.dir, 'cache', 'toolbox', 't.json'), 'utf8')).toContain('n1');
    rmSync(d, { recursive: true });
    mkdirSync(join(p.dir, 'other'));
    writeFileSync(join(p.dir, 'other', 'pad'), 'x'); // so the new folder does not reuse the inode
    mkdirSync(d);
    expect(ownedRecord('t.json', d)).toBeUndefined();
    rmSync(d, { recursive: true });
    symlinkSync(join(p.dir, 'other'), d);
    expect(ownedRecord('t.json', d)).toBeUndefined();
  });
});

describe('treeHash', () => {
  it('changes with a file’s content, its executable bit, a new file or a symlink target', () => {
    const p = setup();
    const d = join(p.dir, 'pkg');
    mkdirSync(join(d, 'lib'), { recursive: true });
    writeFileSync(join(d, 'lib', 'a.js'), 'a');
    symlinkSync('lib/a.js', join(d, 'bin'));
    const seen = new Set([treeHash(d)]);
    expect(treeHash(d)).toBe([...seen][0]);
    writeFileSync(join(d, 'lib', 'a.js'), 'b');
    seen.add(treeHash(d));
    chmodSync(join(d, 'lib', 'a.js'), 0o755);
    seen.add(treeHash(d));
    writeFileSync(join(d, 'lib', '.extra'), '');
    seen.add(treeHash(d));
    rmSync(join(d, 'bin'));
    symlinkSync('lib/.extra', join(d, 'bin'));
    seen.add(treeHash(d));
    expect(seen.size).toBe(5);
    expect([...seen].every((h) => h.startsWith('sha256-'))).toBe(true);
  });
});

describe('treeHashCached', () => {
  it('equals treeHash, and sees a change of size, content or a file replaced with the same size', () => {
    const p = setup();
    const d = join(p.dir, 'pkg');
    mkdirSync(d);
    writeFileSync(join(d, 'a'), 'one');
    expect(treeHashCached(d)).toBe(treeHash(d));
    expect(treeHashCached(d)).toBe(treeHash(d));
    writeFileSync(join(d, 'a'), 'two'); // same size: ctime changes
    expect(treeHashCached(d)).toBe(treeHash(d));
    rmSync(join(d, 'a'));
    writeFileSync(join(d, 'a'), 'six');
    expect(treeHashCached(d)).toBe(treeHash(d));
  });
});

describe('buildFresh', () => {
  it('moves what was there aside, deletes it on success, restores it on failure', async () => {
    const p = setup();
    const d = join(p.dir, 'servers', 'x');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'planted'), 'x');
    const failed = await buildFresh(
      d,
      async () => {
        expect(existsSync(d)).toBe(false);
        mkdirSync(d);
        writeFileSync(join(d, 'half'), '');
        return false;
      },
      (r) => r,
    );
    expect(failed).toBe(false);
    expect(existsSync(join(d, 'planted'))).toBe(true);
    expect(existsSync(join(d, 'half'))).toBe(false);
    await expect(
      buildFresh(
        d,
        async () => Promise.reject(new Error('boom')),
        () => true,
      ),
    ).rejects.toThrow('boom');
    expect(existsSync(join(d, 'planted'))).toBe(true);
    await buildFresh(
      d,
      async () => {
        mkdirSync(d);
        writeFileSync(join(d, 'new'), '');
        return true;
      },
      (r) => r,
    );
    expect(existsSync(join(d, 'planted'))).toBe(false);
    expect(existsSync(join(d, 'new'))).toBe(true);
  });
});

describe('safeNpmrcLines', () => {
  it("keeps the user's registry, auth, proxy and certificate settings, nothing that names a program", () => {
    const text = [
      'registry=https://npm.example/',
      '@acme:registry=https://npm.acme/',
      '//npm.acme/:_authToken=${NPM_TOKEN}',
      'https-proxy=http://proxy:3128',
      'cafile=/etc/ssl/certs/ca.pem',
      'strict-ssl=true',
      'git=/tmp/evil.sh',
      'script-shell=/tmp/evil.sh',
      'node-options=--require /tmp/evil.js',
      'ignore-scripts=false',
      'prefix=/tmp/x',
      '; a comment',
    ].join('\n');
    expect(safeNpmrcLines(text)).toEqual([
      'registry=https://npm.example/',
      '@acme:registry=https://npm.acme/',
      '//npm.acme/:_authToken=${NPM_TOKEN}',
      'https-proxy=http://proxy:3128',
      'cafile=/etc/ssl/certs/ca.pem',
      'strict-ssl=true',
    ]);
  });
});

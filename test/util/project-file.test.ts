// The one reader of project-named files (src/util/project-file.ts): each rule, one case that breaks it.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_PROJECT_FILE,
  ProjectFileError,
  readProjectFile,
  readProjectText,
  readProjectTextIfAny,
  readRegularHead,
} from '../../src/util/project-file.js';
import { isSecretName, secretIn } from '../../src/util/secret-names.js';
import { below, displayPath, insideRel, within } from '../../src/util/paths.js';
import { tempProject } from '../helpers.js';

let p: ReturnType<typeof tempProject>;
afterEach(() => p?.cleanup());

const reason = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(ProjectFileError);
    return (e as ProjectFileError).reason;
  }
};

describe('readProjectFile', () => {
  it('reads a regular file inside the root, by relative or absolute path, and through a link that stays inside', () => {
    p = tempProject({ 'a/b.txt': 'hello', 'c.txt': 'see' });
    symlinkSync('a/b.txt', join(p.dir, 'link.txt'));
    expect(readProjectText(p.dir, 'a/b.txt')).toBe('hello');
    expect(readProjectText(p.dir, join(p.dir, 'c.txt'))).toBe('see');
    expect(readProjectText(p.dir, 'link.txt')).toBe('hello');
    expect(readProjectText(p.dir, 'link.txt', { listed: true })).toBe('hello');
    expect(readProjectText(p.dir, 'c.txt', { listed: true })).toBe('see');
  });

  it('refuses a path that leaves the root by name, by an absolute or a relative link, or a chain of links', () => {
    p = tempProject({ 'root/x.txt': 'x', 'outside.txt': 'SECRET' });
    const root = join(p.dir, 'root');
    symlinkSync(join(p.dir, 'outside.txt'), join(root, 'abs.txt'));
    symlinkSync('../outside.txt', join(root, 'rel.txt'));
    symlinkSync('rel.txt', join(root, 'chain.txt'));
    mkdirSync(join(root, 'd'));
    symlinkSync(p.dir, join(root, 'd', 'up'));
    expect(reason(() => readProjectFile(root, '../outside.txt'))).toBe('outside');
    expect(reason(() => readProjectFile(root, '/etc/hostname'))).toBe('outside');
    for (const f of ['abs.txt', 'rel.txt', 'chain.txt', 'd/up/outside.txt']) {
      expect(
        reason(() => readProjectFile(root, f)),
        f,
      ).toBe('outside');
      expect(
        reason(() => readProjectFile(root, f, { listed: true })),
        f,
      ).toBe('outside');
    }
    // The message names the file and where it leads, never the content.
    expect(() => readProjectFile(root, 'abs.txt')).toThrow(/is outside the project \(it resolves to .*outside\.txt\)/);
    expect(() => readProjectFile(root, 'abs.txt')).not.toThrow(/SECRET/);
  });

  it('refuses credential names at any depth, as written and as resolved', () => {
    p = tempProject({
      '.env': 'K=1',
      'apps/web/.env.local': 'K=1',
      'vendor/lib/.git/config': 'url',
      '.npmrc': 't',
      '.aws/credentials': 'k',
      'plain.txt': 'ok',
    });
    symlinkSync('.env', join(p.dir, 'innocent.txt'));
    for (const f of [
      '.env',
      'apps/web/.env.local',
      'vendor/lib/.git/config',
      '.npmrc',
      '.aws/credentials',
      'innocent.txt',
    ])
      expect(
        reason(() => readProjectFile(p.dir, f)),
        f,
      ).toBe('secret');
    expect(readProjectText(p.dir, 'plain.txt')).toBe('ok');
  });

  it('refuses what is not a regular file (a FIFO, a folder) at once, without blocking', () => {
    p = tempProject({ 'd/x': '' });
    execFileSync('mkfifo', [join(p.dir, 'pipe.txt')]);
    symlinkSync('pipe.txt', join(p.dir, 'to-pipe.txt'));
    expect(reason(() => readProjectFile(p.dir, 'pipe.txt'))).toBe('not_regular');
    expect(reason(() => readProjectFile(p.dir, 'to-pipe.txt', { listed: true }))).toBe('not_regular');
    expect(reason(() => readProjectFile(p.dir, 'd'))).toBe('not_regular');
  });

  it('reads at most max bytes, counting what it reads; a missing file is missing', () => {
    p = tempProject({ 'big.txt': 'x'.repeat(1000), 'exact.txt': 'y'.repeat(100), 'empty.txt': '' });
    expect(reason(() => readProjectFile(p.dir, 'big.txt', { max: 999 }))).toBe('too_large');
    expect(readProjectFile(p.dir, 'big.txt', { max: 1000 }).length).toBe(1000);
    expect(readProjectFile(p.dir, 'exact.txt', { max: 100 }).toString()).toBe('y'.repeat(100));
    expect(readProjectFile(p.dir, 'empty.txt').length).toBe(0);
    expect(MAX_PROJECT_FILE).toBe(1024 * 1024);
    expect(reason(() => readProjectFile(p.dir, 'gone.txt'))).toBe('missing');
    expect(reason(() => readProjectFile(p.dir, 'gone.txt', { listed: true }))).toBe('missing');
    expect(readProjectTextIfAny(p.dir, 'gone.txt')).toBeUndefined();
    expect(readProjectTextIfAny(p.dir, 'exact.txt')).toBe('y'.repeat(100));
  });
});

describe('readRegularHead', () => {
  it('reads the head of a regular file anywhere; undefined for a FIFO, /dev/zero or a missing file', () => {
    p = tempProject({ 'v.txt': '3.12.1\n' + 'x'.repeat(100) });
    execFileSync('mkfifo', [join(p.dir, 'fifo')]);
    expect(readRegularHead(join(p.dir, 'v.txt'), 6)?.toString()).toBe('3.12.1');
    expect(readRegularHead(join(p.dir, 'fifo'), 10)).toBeUndefined();
    expect(readRegularHead('/dev/zero', 10)).toBeUndefined();
    expect(readRegularHead(join(p.dir, 'gone'), 10)).toBeUndefined();
  });
});

describe('secret names', () => {
  it.each([
    ['.env', true],
    ['.ENV', true],
    ['.env.local', true],
    ['.envrc', true],
    ['.git', true],
    ['.npmrc', true],
    ['.netrc', true],
    ['.pypirc', true],
    ['.git-credentials', true],
    ['.aws', true],
    ['.docker', true],
    ['.kube', true],
    ['.ssh', true],
    ['.gitignore', false],
    ['.github', false],
    ['.venv', false],
    ['env', false],
    ['git', false],
    ['.toolbox', false],
  ])('%s: %s', (name, want) => {
    expect(isSecretName(name)).toBe(want);
  });

  it('finds the first credential component of a relative path', () => {
    expect(secretIn('apps/web/.env.local')).toBe('.env.local');
    expect(secretIn('vendor/lib/.git/config')).toBe('.git');
    expect(secretIn('a/.ssh')).toBe('.ssh');
    expect(secretIn('a/b/c.py')).toBeUndefined();
    expect(secretIn('a_b/c.txt')).toBeUndefined();
    expect(secretIn('')).toBeUndefined();
  });
});

describe('within (the one "inside that folder")', () => {
  it.each([
    ['/p', '/p', true, ''],
    ['/p', '/p/a', true, 'a'],
    ['/p', '/p/..cache', true, '..cache'],
    ['/p', '/p/a/../..', false, undefined],
    ['/p', '/pa', false, undefined],
    ['/p', '/', false, undefined],
    ['/p/a', '/p', false, undefined],
  ])('%s contains %s: %s', (dir, p2, want, rel) => {
    expect(within(dir, p2)).toBe(want);
    expect(insideRel(dir, p2)).toBe(rel);
    expect(below(dir, p2)).toBe(want && rel !== '');
  });

  it('displayPath shows a path inside cwd relative, others as they are', () => {
    expect(displayPath('/p/a/b.yaml', '/p')).toBe('a/b.yaml');
    expect(displayPath('/q/b.yaml', '/p')).toBe('/q/b.yaml');
    expect(displayPath('/p', '/p')).toBe('/p');
    expect(displayPath('rel/x', '/p')).toBe('rel/x');
  });
});

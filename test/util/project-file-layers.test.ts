// The one reader of project-named files checks three times: by the name as written, by the real path
// before opening, and by what the kernel says was opened. Each layer has a case only it catches, so a
// test fails when that one check is removed (issue 34 item 6, `npm run mutate -- trust-paths`); the
// realpath layer alone, as on a system without /proc, is in project-file-noproc.test.ts.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProjectFileError,
  readProjectFile,
  readProjectTextIfAny,
  readRegularHead,
} from '../../src/util/project-file.js';
import { tempProject } from '../helpers.js';

let p: ReturnType<typeof tempProject>;
afterEach(() => p?.cleanup());

const refusal = (f: () => unknown): ProjectFileError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProjectFileError);
    return e as ProjectFileError;
  }
  throw new Error('expected a refusal');
};

describe('each layer of the reader', () => {
  it('by name: a credential name is refused even when it links to an ordinary file', () => {
    p = tempProject({ 'config.txt': 'plain\n' });
    symlinkSync(join(p.dir, 'config.txt'), join(p.dir, '.env'));
    for (const listed of [false, true]) {
      const e = refusal(() => readProjectFile(p.dir, '.env', { listed }));
      expect(e.reason).toBe('secret');
      expect(e.message).toBe(`${join(p.dir, '.env')} is a credential file or folder: not read`);
    }
  });

  it('by what was opened: a listed file below a folder linked to .git is refused', () => {
    p = tempProject({ '.git/config': '[remote "origin"]\n\turl = https://token@example.com\n' });
    symlinkSync(join(p.dir, '.git'), join(p.dir, 'sub'));
    const e = refusal(() => readProjectFile(p.dir, 'sub/config', { listed: true }));
    expect(e.reason).toBe('secret');
    expect(e.message).toContain(`(it resolves to ${join(p.dir, '.git/config')})`);
    expect(e.message).not.toContain('token');
    // A listed file below a folder linked outside the project.
    mkdirSync(join(p.dir, '..', `${p.dir.split('/').pop()}-out`), { recursive: true });
    const out = join(p.dir, '..', `${p.dir.split('/').pop()}-out`);
    writeFileSync(join(out, 'x.yaml'), 'a: 1\n');
    symlinkSync(out, join(p.dir, 'linked'));
    expect(refusal(() => readProjectFile(p.dir, 'linked/x.yaml', { listed: true })).reason).toBe('outside');
  });

  it('a listed file that is itself a link is resolved and checked; a missing one is missing', () => {
    p = tempProject({ 'a.yaml': 'a: 1\n', '.env': 'K=v\n' });
    symlinkSync(join(p.dir, 'a.yaml'), join(p.dir, 'b.yaml'));
    symlinkSync(join(p.dir, '.env'), join(p.dir, 'c.yaml'));
    expect(readProjectFile(p.dir, 'b.yaml', { listed: true }).toString()).toBe('a: 1\n');
    const e = refusal(() => readProjectFile(p.dir, 'c.yaml', { listed: true }));
    expect(e.reason).toBe('secret');
    expect(e.message).toContain(`it resolves to ${join(p.dir, '.env')}`);
    expect(refusal(() => readProjectFile(p.dir, 'gone.yaml', { listed: true })).code).toBe('project_file_missing');
  });
});

describe('a root named through a link', () => {
  it('reads a file named by the root as given or by its real path', () => {
    p = tempProject({ 'a.yaml': 'a: 1\n' });
    const link = `${p.dir}-link`;
    symlinkSync(p.dir, link);
    try {
      expect(readProjectFile(link, 'a.yaml').toString()).toBe('a: 1\n');
      expect(readProjectFile(link, join(p.dir, 'a.yaml')).toString()).toBe('a: 1\n');
      expect(readProjectFile(link, join(link, 'a.yaml')).toString()).toBe('a: 1\n');
    } finally {
      rmSync(link);
    }
  });
});

describe('what a refusal says', () => {
  it('missing: its own code, no "not read"; refused: the rule, "not read", and a hint for links', () => {
    p = tempProject({});
    const missing = refusal(() => readProjectFile(p.dir, 'nope.yaml'));
    expect(missing.code).toBe('project_file_missing');
    expect(missing.message).toBe(`${join(p.dir, 'nope.yaml')} does not exist (ENOENT)`);
    expect(missing.hint).toBeUndefined();
    expect(missing.exitCode).toBe(3);
    const outside = refusal(() => readProjectFile(p.dir, '../x.yaml'));
    expect(outside.code).toBe('project_file_refused');
    expect(outside.message).toMatch(/is outside the project: not read$/);
    expect(outside.hint).toContain('replace the link with the file itself');
    mkdirSync(join(p.dir, 'folder'));
    const folder = refusal(() => readProjectFile(p.dir, 'folder'));
    expect(folder.reason).toBe('not_regular');
    expect(folder.hint).toBeUndefined();
    expect(folder.message).toMatch(/is not a regular file: not read$/);
  });

  it('too large: the size the file claimed, and not a byte of it', () => {
    p = tempProject({ 'big.yaml': 'z'.repeat(5000) });
    const e = refusal(() => readProjectFile(p.dir, 'big.yaml', { max: 100 }));
    expect(e.reason).toBe('too_large');
    expect(e.size).toBe(5000);
    expect(e.message).not.toContain('zzz');
    expect(readProjectFile(p.dir, 'big.yaml', { max: 5000 }).length).toBe(5000);
    expect(readProjectFile(p.dir, 'big.yaml', { max: 10_000 }).length).toBe(5000);
  });

  it('a path through a file is unreadable, not missing; a socket is not a regular file', async () => {
    p = tempProject({ 'file.txt': 'x' });
    const through = refusal(() => readProjectFile(p.dir, 'file.txt/inner'));
    expect(through.reason).toBe('unreadable');
    expect(through.code).toBe('project_file_refused');
    const server = createServer();
    await new Promise<void>((res) => server.listen(join(p.dir, 'sock'), () => res()));
    try {
      for (const listed of [false, true])
        expect(refusal(() => readProjectFile(p.dir, 'sock', { listed })).reason).toBe('not_regular');
    } finally {
      server.close();
    }
  });

  it('a missing project folder is named as such', () => {
    const e = refusal(() => readProjectFile('/nonexistent-toolbox-root', 'a.yaml'));
    expect(e.code).toBe('project_file_missing');
    expect(e.message).toContain('(its project folder)');
  });

  it('readProjectTextIfAny answers undefined for a refusal and passes on anything else', () => {
    p = tempProject({ '.env': 'K=v\n', 'ok.txt': 'fine' });
    expect(readProjectTextIfAny(p.dir, '.env')).toBeUndefined();
    expect(readProjectTextIfAny(p.dir, 'ok.txt')).toBe('fine');
  });

  it('the head of a file is read up to its bound, the rest left unread', () => {
    p = tempProject({ 'long.txt': 'abcdefghij'.repeat(100) });
    expect(readRegularHead(join(p.dir, 'long.txt'), 10)?.toString()).toBe('abcdefghij');
    expect(readRegularHead(join(p.dir, 'long.txt'), 5000)?.length).toBe(1000);
  });
});

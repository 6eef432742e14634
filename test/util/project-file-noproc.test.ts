// On a system without /proc (no kernel name for an open descriptor), the reader's realpath check
// stands alone: a non-secret name linking to a credential, or out of the project, is still refused
// before it is opened (issue 34 item 6). /proc is taken away for this file only.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempProject } from '../helpers.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readlinkSync = ((path: string, ...rest: unknown[]) => {
    if (String(path).startsWith('/proc/self/fd/')) throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
    return (fs.readlinkSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readlinkSync;
  return { ...fs, default: { ...fs, readlinkSync }, readlinkSync };
});

const { ProjectFileError, readProjectFile } = await import('../../src/util/project-file.js');

let p: ReturnType<typeof tempProject>;
afterEach(() => p?.cleanup());

const reasonOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProjectFileError);
    return (e as InstanceType<typeof ProjectFileError>).reason;
  }
  return 'read';
};

describe('the reader without /proc', () => {
  it('refuses a link to a credential, or out of the project, by its real path', () => {
    p = tempProject({ '.env': 'K=v\n', 'ok.yaml': 'a: 1\n' });
    symlinkSync(join(p.dir, '.env'), join(p.dir, 'cfg.yaml'));
    symlinkSync('/etc/hostname', join(p.dir, 'host.yaml'));
    expect(reasonOf(() => readProjectFile(p.dir, 'cfg.yaml'))).toBe('secret');
    expect(reasonOf(() => readProjectFile(p.dir, 'host.yaml'))).toBe('outside');
    expect(reasonOf(() => readProjectFile(p.dir, 'ok.yaml'))).toBe('read');
  });
});

import { describe, expect, it } from 'vitest';
import { evaluateMarker, parsePep508, specifierContains } from '../../src/deps/pep508.js';
import { nameOfLocal, parsePythonRequires } from '../../src/deps/requirements-txt.js';
import { tempProject } from '../helpers.js';

const ENV = {
  python_version: '3.11',
  python_full_version: '3.11.7',
  sys_platform: 'linux',
  os_name: 'posix',
  platform_system: 'Linux',
  implementation_name: 'cpython',
  platform_machine: 'x86_64',
};

describe('parsePep508', () => {
  it.each([
    ['requests', { name: 'requests', specifier: '', extras: [] }],
    [
      'requests[socks,security] >= 2.8.1, == 2.8.*',
      { name: 'requests', extras: ['socks', 'security'], specifier: '>=2.8.1,==2.8.*' },
    ],
    ['name (>=1.0)', { name: 'name', specifier: '>=1.0' }],
    ['pip; python_version < "3.0"', { name: 'pip', specifier: '', marker: 'python_version < "3.0"' }],
    [
      'pkg @ file:///tmp/pkg-1.0-py3-none-any.whl ; os_name == "posix"',
      { name: 'pkg', url: 'file:///tmp/pkg-1.0-py3-none-any.whl', marker: 'os_name == "posix"' },
    ],
    ['zope.interface~=5.0', { name: 'zope.interface', specifier: '~=5.0' }],
  ])('%s', (line, want) => {
    expect(parsePep508(line)).toMatchObject(want);
  });
  it('rejects what is not a requirement', () => {
    expect(parsePep508('-e .')).toBeUndefined();
    expect(parsePep508('pkg wat')).toBeUndefined();
  });
});

describe('evaluateMarker (fallback when the interpreter has no packaging)', () => {
  it.each([
    ['python_version < "3.12"', true],
    ['python_version < "3.9"', false],
    ['python_version >= "3.10" and sys_platform == "linux"', true],
    ['python_version >= "3.10" and sys_platform == "win32"', false],
    ['sys_platform == "win32" or (os_name == "posix" and python_full_version != "3.11.7")', false],
    ['python_full_version == "3.11.*"', true],
    ['"linux" in sys_platform', true],
    ["platform_machine not in 'arm64 aarch64'", true],
    ['extra == "test"', false],
    ['python_version ~= "3.10"', true],
  ])('%s -> %s', (m, want) => {
    expect(evaluateMarker(m, ENV)).toBe(want);
  });
  it('rejects unknown variables and bad syntax', () => {
    expect(() => evaluateMarker('python_verison < "3"', ENV)).toThrow(/unknown marker variable/);
    expect(() => evaluateMarker('python_version <', ENV)).toThrow();
    expect(() => evaluateMarker('(python_version < "3"', ENV)).toThrow(/\)/);
  });
});

describe('specifierContains (PEP 440 through @renovatebot/pep440)', () => {
  it.each([
    ['1.5', '~=1.4', true],
    ['2.0', '~=1.4', false],
    ['1.4.2', '~=1.4.0', true],
    ['1.5', '~=1.4.0', false],
    ['1.9', '==1.*', true],
    ['2.0', '==1.*', false],
    ['1.5', '!=1.5', false],
    ['1.0rc1', '>=0.9', true],
    ['1.0', '', true],
  ])('%s %s -> %s', (v, spec, want) => {
    expect(specifierContains(v, spec)).toBe(want);
  });
});

describe('requires.python parsing', () => {
  it('infers the package name of local wheels, sdists and project folders', () => {
    const p = tempProject({
      'proj/pyproject.toml': '[build-system]\nrequires = []\n\n[project]\nname = "my-proj"\nversion = "0.1"\n',
    });
    try {
      expect(nameOfLocal('/x/my_pkg-1.0.2-py3-none-any.whl', p.dir)).toBe('my_pkg');
      expect(nameOfLocal('/x/my-pkg-1.0.tar.gz', p.dir)).toBe('my-pkg');
      expect(nameOfLocal(`${p.dir}/proj`, p.dir)).toBe('my-proj');
      // A folder outside the project: its metadata is not read.
      expect(nameOfLocal(`${p.dir}/proj`, `${p.dir}/elsewhere`)).toBeUndefined();
      const d = parsePythonRequires(['./proj', 'a>=1 --hash=sha256:abc', 'not a requirement!'], p.dir, p.dir);
      expect(d.lines.map((l) => [l.name, l.line])).toEqual([
        ['my-proj', 'my-proj'],
        ['a', 'a>=1'],
      ]);
      expect(d.lines[0]!.localPath).toBe(`${p.dir}/proj`);
      expect(d.problems).toHaveLength(1);
    } finally {
      p.cleanup();
    }
  });
  it('reports a requirements file that cannot be read', () => {
    const d = parsePythonRequires('missing/requirements.txt', '/nonexistent', '/nonexistent');
    expect(d.problems[0]!.message).toMatch(/requirements file .* does not exist/);
  });

  // Issue 34 item 1: a file's lines are never quoted back; only names (with a plain version) and file:line.
  it('names what a requirements file asks for, never its other text', () => {
    const p = tempProject({
      'reqs/requirements.txt':
        'requests>=2,<3\nSECRET_TOKEN=hunter2\npkg @ https://user:tok3n@host/pkg-1-py3-none-any.whl\n',
    });
    try {
      const d = parsePythonRequires('reqs/requirements.txt', p.dir, p.dir);
      expect(d.lines.map((l) => l.raw)).toEqual(['requests>=2,<3', 'pkg']);
      expect(d.problems).toEqual([
        expect.objectContaining({
          raw: 'reqs/requirements.txt:2',
          message: 'line 2 of reqs/requirements.txt is not a PEP 508 requirement',
        }),
      ]);
      expect(JSON.stringify(d)).not.toMatch(/hunter2/);
      const wrong = parsePythonRequires('../x.yaml', `${p.dir}/reqs`, p.dir);
      expect(wrong.problems[0]!.message).toMatch(/not named like a requirements file/);
    } finally {
      p.cleanup();
    }
  });
});

// The CLI's contract, in process through run(argv, io): the exit-code table, usage errors, the
// internal-error path and `show`. test/cli/surface.test.ts checks the same through the real binary.
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli.js';
import { EXIT_MEANINGS, ExitCode } from '../../src/errors.js';
import { memoryIO } from '../../src/io.js';
import { cli, REPO, tempProject } from '../helpers.js';
import { commandPaths, helpExitTable, readmeExitTable } from './exit-table.js';

const project = tempProject();
cpSync(join(REPO, 'test', 'fixtures', 'select', 'registry'), join(project.dir, 'tool_registry'), { recursive: true });
const cwd = realpathSync(project.dir);
afterAll(() => project.cleanup());

const meanings = Object.fromEntries(Object.entries(EXIT_MEANINGS));
const paths = commandPaths(buildProgram(memoryIO({ cwd }), () => {}));

describe('exit-code table', () => {
  it('has one meaning per exit code of src/errors.ts, and README says the same', () => {
    expect(
      Object.keys(meanings)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...new Set(Object.values(ExitCode))].sort((a, b) => a - b));
    expect(ExitCode.internal).toBe(70);
    expect(ExitCode.cancelled).toBe(130);
    expect(readmeExitTable()).toEqual(meanings);
  });

  it('covers every command, nested ones too', () => {
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining(['', 'init', 'run', 'show', 'select', 'serve', 'validate', 'import mcp']),
    );
  });

  it.each(paths.map((p) => [p.join(' ') || '(root)', p]))(
    'toolbox %s --help: exit 0 and the table of src/errors.ts',
    async (_, path) => {
      const r = await cli([...path, '--help'], { cwd });
      expect(r.code).toBe(0);
      expect(helpExitTable(r.stdout)).toEqual(meanings);
    },
  );
});

describe('usage errors and internal errors', () => {
  it.each([
    [['bogus']],
    [['list', '--bogus']],
    [['--bogus', 'list']],
    [['show']],
    [['select', 'x', '--format', 'xml']],
  ])('toolbox %j: exit 2, one JSON usage error under --json', async (argv) => {
    expect((await cli(argv, { cwd })).code).toBe(ExitCode.usage);
    const r = await cli([...argv, '--json'], { cwd });
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.errorJson.error.code).toBe('usage');
  });

  it('a bug exits 70 with internal_error, a stack only under --verbose', async () => {
    const env = { TOOLBOX_TEST_INTERNAL_ERROR: '1' };
    const plain = await cli(['list'], { cwd, env });
    expect(plain.code).toBe(70);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const json = await cli(['list', '--json'], { cwd, env });
    expect(json.code).toBe(70);
    expect(json.stdout).toBe('');
    expect(json.errorJson.error.code).toBe('internal_error');
    const verbose = await cli(['list', '--verbose'], { cwd, env });
    expect(verbose.code).toBe(70);
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });

  it('the test hook only fires when set to 1', async () => {
    expect((await cli(['list'], { cwd, env: { TOOLBOX_TEST_INTERNAL_ERROR: '0' } })).code).toBe(0);
  });
});

describe('toolbox show', () => {
  const file = join(cwd, 'tool_registry', 'query_weather.yaml');

  it('prints the contract for people: id and file:line, then the contract as YAML', async () => {
    const r = await cli(['show', 'query_weather'], { cwd, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const [head, ...rest] = r.stdout.split('\n');
    expect(head).toContain('query_weather');
    expect(head).toContain(`${file}:1`);
    const shown = parse(rest.join('\n')) as Record<string, unknown>;
    const json = await cli(['show', 'query_weather', '--json'], { cwd });
    expect(shown).toEqual(json.json.contract);
    expect(shown).toMatchObject({ id: 'query_weather', loader: 'command', schema: { required: ['city'] } });
  });

  it('--json: one document with id, file, line and the whole contract', async () => {
    const r = await cli(['show', 'query_weather', '--json'], { cwd });
    expect(r.code).toBe(0);
    expect(Object.keys(r.json).sort()).toEqual(['contract', 'file', 'id', 'line']);
    expect(r.json).toMatchObject({ id: 'query_weather', file, line: 1 });
    expect(r.json.contract).toEqual(parse(await import('node:fs').then((fs) => fs.readFileSync(file, 'utf8'))));
  });

  it('an unknown id exits 2 with unknown_tool and suggestions', async () => {
    const r = await cli(['show', 'query_wether', '--json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.errorJson.error).toMatchObject({ code: 'unknown_tool', details: { suggestions: ['query_weather'] } });
  });
});

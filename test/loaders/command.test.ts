import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callCtx, loadTool, rejection } from './helpers.js';

const cmd = (argv: string[], extra: Record<string, unknown> = {}) => loadTool('command', { argv, ...extra });
const lines = (s: unknown) => String(s).split('\n');

describe('command loader', () => {
  it('substitutes {{param}} per argv element: every type, quotes and unicode stay one element each', async () => {
    const tool = await cmd([
      './l_argv.sh',
      '{{s}}',
      '{{zh}}',
      '{{i}}',
      '{{f}}',
      '{{t}}',
      '{{no}}',
      '{{arr}}',
      '{{obj}}',
      '--opt={{missing}}',
      '{{missing}}',
      '{{nil}}',
    ]);
    const args = {
      s: `a "b" 'c' \\ $HOME`,
      zh: '北京 天气',
      i: 42,
      f: -1.5,
      t: true,
      no: false,
      arr: [1, 'x'],
      obj: { k: { n: null } },
      nil: null,
    };
    const out = await tool.call(args, callCtx());
    expect(lines(out.result)).toEqual([
      '9',
      `[a "b" 'c' \\ $HOME]`,
      '[北京 天气]',
      '[42]',
      '[-1.5]',
      '[true]',
      '[false]',
      '[[1,"x"]]',
      '[{"k":{"n":null}}]',
      '[--opt=]',
    ]);
  });

  it('an argument like "; rm -rf DIR" is one argv element, never run by a shell: nothing is deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l-victim-'));
    writeFileSync(join(dir, 'keep'), 'x');
    try {
      const evil = [`; rm -rf ${dir}`, `$(rm -rf ${dir})`, `\`rm -rf ${dir}\``, `| rm -rf ${dir}`, `&& rm -rf ${dir}`];
      const tool = await cmd(['./l_argv.sh', '{{a}}', '{{b}}', '{{c}}', '{{d}}', '{{e}}']);
      const out = await tool.call({ a: evil[0], b: evil[1], c: evil[2], d: evil[3], e: evil[4] }, callCtx());
      expect(lines(out.result)).toEqual(['5', ...evil.map((e) => `[${e}]`)]);
      expect(existsSync(join(dir, 'keep'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stdout that is JSON is parsed (auto); parse: text keeps it as text; parse: json insists', async () => {
    expect((await (await cmd(['./l_json.sh', '{{v}}'])).call({ v: 'hi' }, callCtx())).result).toEqual({
      got: 'hi',
      n: 3,
    });
    expect((await (await cmd(['./l_json.sh', '{{v}}'], { parse: 'text' })).call({ v: 'hi' }, callCtx())).result).toBe(
      '{"got": "hi", "n": 3}',
    );
    expect((await (await cmd(['echo', '  plain words  '])).call({}, callCtx())).result).toBe('plain words');
    const err = await rejection((await cmd(['echo', 'not json'], { parse: 'json' })).call({}, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
  });

  it('a stdin template is filled and written to the program', async () => {
    const tool = await cmd(['cat'], { stdin: 'hello {{name}}\n{{n}}' });
    expect((await tool.call({ name: '世界', n: 7 }, callCtx())).result).toBe('hello 世界\n7');
  });

  it('a non-zero exit is a failure carrying the stderr tail and the exit code', async () => {
    const err = await rejection((await cmd(['./l_fail.sh', '{{x}}'])).call({ x: 'widgets' }, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('cannot frobnicate widgets');
    expect(err.message).toContain('code 3');
    expect(err.logs).toContain('cannot frobnicate');
  });

  it('a missing program, or a templated program, is refused at load', async () => {
    expect(await rejection(cmd(['./l_nope.sh']))).toMatchObject({ code: 'command_not_found', exitCode: 6 });
    expect((await rejection(cmd(['l-no-such-program-xyz']))).message).toContain('l-no-such-program-xyz');
    expect(await rejection(cmd(['{{prog}}']))).toMatchObject({ code: 'command_program_templated', exitCode: 3 });
  });

  it('timeout and output flood are limit hits', async () => {
    const slow = await rejection((await cmd(['sleep', '10'])).call({}, callCtx({ timeout: '300ms' })));
    expect(slow).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
    const flood = await rejection((await cmd(['yes'])).call({}, callCtx({ sandbox: { output: '64K' } })));
    expect(flood).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'output' });
  });
});

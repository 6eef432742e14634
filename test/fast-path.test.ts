import { afterEach, describe, expect, it } from 'vitest';
import { fastCommand } from '../src/fast-path.js';
import { cli } from './helpers.js';
import { fixtureProject } from './select/fixture.js';

let fx: ReturnType<typeof fixtureProject> | undefined;
afterEach(() => fx?.cleanup());

describe('the select/run fast path', () => {
  it('parses what it fully understands and leaves the rest to commander', () => {
    expect(fastCommand(['select', 'weather', '-k', '3', '--json', '--format=openai'])).toMatchObject({
      file: 'select',
      args: ['weather'],
      opts: { top: '3', json: true, format: 'openai' },
    });
    expect(fastCommand(['select', 'weather', '--no-color'])!.opts).toMatchObject({ color: false, top: '5' });
    expect(fastCommand(['select', 'weather'])!.given.has('top')).toBe(false);
    expect(fastCommand(['run', 'calc', '--x', '1', '--json'])).toMatchObject({
      file: 'run',
      args: ['calc', ['--x', '1', '--json']],
    });
    for (const argv of [
      ['select', 'weather', '--help'],
      ['select', 'weather', '--bogus'],
      ['select', 'a', 'b'],
      ['select'],
      ['select', 'weather', '--top'],
      ['select', 'weather', '--format', 'yaml'],
      ['run'],
      ['run', '--help'],
      ['--json', 'select', 'weather'],
      ['list'],
    ])
      expect(fastCommand(argv), argv.join(' ')).toBeUndefined();
  });

  it('gives the same answers and exit codes as the commander tree', async () => {
    fx = fixtureProject();
    const cwd = fx.dir;
    // Global options before the command go through commander; after it, through the fast path.
    const fast = await cli(['select', 'weather in Paris', '-k', '2', '--json'], { cwd });
    const slow = await cli(['--json', 'select', 'weather in Paris', '-k', '2'], { cwd });
    expect(fast.code).toBe(0);
    expect(fast.json).toEqual(slow.json);
    const badTop = await cli(['select', 'weather', '--top', '0', '--json'], { cwd });
    const badTopSlow = await cli(['--json', 'select', 'weather', '--top', '0'], { cwd });
    expect(badTop.code).toBe(2);
    expect(badTop.errorJson.error.code).toBe('invalid_top');
    expect(badTopSlow.errorJson).toEqual(badTop.errorJson);
    const unknown = await cli(['run', 'no_such_tool', '--json'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.errorJson.error.code).toBe('unknown_tool');
  });
});

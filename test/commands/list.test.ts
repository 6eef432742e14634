import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempProject, REFERENCE_CONTRACT } from '../helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
const withTags = (id: string, tags: string[], desc: string) =>
  REFERENCE_CONTRACT.replace('id: query_weather', `id: ${id}\ntags: [${tags.join(', ')}]`).replace(
    /description: .*\n/,
    `description: ${desc}\n`,
  );

describe('toolbox list', () => {
  const files = {
    'tool_registry/weather.yaml': withTags(
      'query_weather',
      ['weather', 'zh'],
      '根据城市名称查询当前天气情况和未来短期预报。',
    ),
    'tool_registry/fx.yaml': withTags(
      'convert_currency',
      ['finance'],
      'Convert an amount of money between currencies at the latest exchange rate; use when the user asks what a sum is worth elsewhere.',
    ),
    'tool_registry/broken.yaml': 'id: [oops\n',
  };

  it('lists id, loader, tags, token cost and description; names broken files on stderr', async () => {
    const p = tempProject(files);
    cleanups.push(p.cleanup);
    const r = await cli(['list', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.tools.map((t: { id: string }) => t.id)).toEqual(['convert_currency', 'query_weather']);
    const w = r.json.tools[1];
    expect(w).toMatchObject({ loader: 'python_function', tags: ['weather', 'zh'] });
    expect(w.tokens).toBeGreaterThan(20);
    expect(w.tokens).toBeLessThan(200);
    expect(r.json.broken[0].file).toMatch(/broken\.yaml$/);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tool_registry/broken.yaml');
  });

  it('filters by --tag', async () => {
    const p = tempProject(files);
    cleanups.push(p.cleanup);
    const r = await cli(['list', '--tag', 'finance', '--json'], { cwd: p.dir });
    expect(r.json.tools.map((t: { id: string }) => t.id)).toEqual(['convert_currency']);
  });

  it('prints a table with descriptions cut to the terminal width', async () => {
    const p = tempProject(files);
    cleanups.push(p.cleanup);
    const r = await cli(['list'], { cwd: p.dir, env: { COLUMNS: '70' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+LOADER\s+TAGS\s+TOKENS\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^convert_currency\s+python_function\s+finance\s+\d+\s+Convert an/);
    expect(lines[1]).toMatch(/…$/);
    const { displayWidth } = await import('../../src/util/width.js');
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(70);
  });
});

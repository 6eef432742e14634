import { describe, expect, it } from 'vitest';
import { checkOutput, fillTemplate, formatResult, renderReadable } from '../../src/runtime/format.js';
import type { ToolContract } from '../../src/contract/types.js';

const contract = (extra: Partial<ToolContract>): ToolContract => ({
  id: 't',
  name: 'T',
  description: 'd',
  schema: { type: 'object' },
  loader: 'command',
  loader_config: { argv: ['true'] },
  ...extra,
});

describe('fillTemplate', () => {
  it.each([
    ['{{city}}: {{temp}}°C', { city: '北京', temp: 21 }, '北京: 21°C'],
    ['{{ now.temp }} / {{now.wind.speed}}', { now: { temp: 3, wind: { speed: 7 } } }, '3 / 7'],
    ['{{.}}', 'plain', 'plain'],
    ['{{.}}', [1, 2, 3], '1, 2, 3'],
    ['tags: {{tags}}', { tags: ['a', 'b'] }, 'tags: a, b'],
    ['first: {{items.0.name}}', { items: [{ name: 'x' }] }, 'first: x'],
    ['[{{missing}}]', {}, '[]'],
    ['obj: {{o}}', { o: { a: 1 } }, 'obj: {"a":1}'],
    ['null: {{n}}', { n: null }, 'null: '],
  ])('%s', (tpl, result, want) => {
    expect(fillTemplate(tpl, result)).toBe(want);
  });
});

describe('renderReadable', () => {
  it('leaves strings as they are', () => {
    expect(renderReadable('hello\nworld')).toBe('hello\nworld');
  });
  it('aligns keys of an object (CJK counts two columns)', () => {
    expect(renderReadable({ city: '北京', temperature: 21 })).toBe('city:        北京\ntemperature: 21');
    expect(renderReadable({ 城市: 'x', ab: 1 })).toBe('城市: x\nab:   1');
  });
  it('indents nested objects and lists arrays of objects', () => {
    const text = renderReadable({
      now: { temp: 3 },
      days: [
        { d: 'mon', t: 1 },
        { d: 'tue', t: 2 },
      ],
      tags: [],
    });
    expect(text).toBe(
      ['now:', '  temp: 3', 'days:', '  - d: mon', '    t: 1', '  - d: tue', '    t: 2', 'tags:', '  (none)'].join(
        '\n',
      ),
    );
  });
  it('renders scalars and arrays of scalars', () => {
    expect(renderReadable(42)).toBe('42');
    expect(renderReadable(null)).toBe('null');
    expect(renderReadable(['a', 'b'])).toBe('- a\n- b');
  });

  it('keeps the shape of multi-line strings: every line indented alike, under their key', () => {
    const toc = '- Title\n  - Part A\n    - A.1\n  - Part B';
    expect(renderReadable({ count: 4, toc })).toBe(
      'count: 4\ntoc:\n  - Title\n    - Part A\n      - A.1\n    - Part B',
    );
    expect(renderReadable({ files: ['a\n b', 'c'] })).toBe('files:\n  - a\n     b\n  - c');
    expect(renderReadable({ d: { diff: '-x\n+y' } })).toBe('d:\n  diff:\n    -x\n    +y');
  });
});

describe('formatResult and checkOutput', () => {
  it('uses the template when the contract has one', () => {
    expect(formatResult(contract({ format: 'T={{t}}' }), { t: 1 })).toBe('T=1');
    expect(formatResult(contract({}), { t: 1 })).toBe('t: 1');
  });
  it('warns (does not fail) when the result does not match output_schema', () => {
    const c = contract({
      output_schema: { type: 'object', required: ['temp'], properties: { temp: { type: 'number' } } },
    });
    expect(checkOutput(c, { temp: 1 })).toEqual([]);
    const w = checkOutput(c, { temp: 'hot' });
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/output_schema/);
    expect(checkOutput(contract({}), 'anything')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { lintSettings, runLint } from '../../src/lint/engine.js';
import { loadRules, RULE_IDS, ruleMap } from '../../src/lint/rules/index.js';
import { terms, weightedLength } from '../../src/lint/text.js';
import type { LintRule } from '../../src/lint/types.js';
import { ToolboxError } from '../../src/errors.js';

const thrown = (fn: () => unknown): ToolboxError => {
  try {
    fn();
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('did not throw');
};

describe('lint engine', () => {
  it('loads every rule from the map, each in a file named after its id', async () => {
    const rules = await loadRules();
    expect(rules.map((r) => r.meta.id)).toEqual(RULE_IDS);
    expect(new Set(rules.map((r) => r.meta.severity))).toContain('error');
  });

  it('applies severity overrides, off and options from the config', async () => {
    const rules = await loadRules();
    const s = lintSettings(rules, {
      lint: {
        rules: { 'description-vague': 'warning', 'description-when-to-use': 'off' },
        options: { 'description-too-short': { min: 10 } },
      },
    });
    expect(s.severity['description-vague']).toBe('warning');
    expect(s.severity['description-when-to-use']).toBe('off');
    expect(s.options['description-too-short']).toEqual({ min: 10 });
    expect(s.options['description-too-long']).toEqual({ max: 1024 });
    const file = { file: '/r/a.yaml', data: { description: 'does stuff' }, locate: () => ({ line: 3, column: 1 }) };
    const ds = runLint(rules, [file], s, (f) => f);
    expect(ds.find((d) => d.rule === 'description-vague')?.severity).toBe('warning');
    expect(ds.some((d) => d.rule === 'description-when-to-use')).toBe(false);
  });

  it('rejects unknown rules, severities and options as config errors (exit 3) with suggestions', async () => {
    const rules = await loadRules();
    const e1 = thrown(() =>
      lintSettings(rules, { lint: { rules: { 'descripton-vague': 'off' } } }, '/p/toolbox.config.yaml'),
    );
    expect(e1.code).toBe('config_invalid');
    expect(e1.exitCode).toBe(3);
    expect(e1.message).toContain("Did you mean 'description-vague'");
    const e2 = thrown(() => lintSettings(rules, { lint: { rules: { 'description-vague': 'fatal' as never } } }));
    expect(e2.code).toBe('config_invalid');
    const e3 = thrown(() => lintSettings(rules, { lint: { options: { 'description-too-short': { minimum: 3 } } } }));
    expect(e3.hint).toContain('min');
    const e4 = thrown(() => lintSettings(rules, { lint: { options: { 'description-too-short': { min: 'ten' } } } }));
    expect(e4.code).toBe('config_invalid');
  });

  it('turns a crashing rule into a diagnostic and keeps going', async () => {
    const boom: LintRule = {
      meta: { id: 'boom', description: 'always throws', severity: 'warning', docs: 'test' },
      check() {
        throw new Error('kaput');
      },
    };
    const vague = await ruleMap['description-vague']();
    const file = { file: '/r/a.yaml', data: { description: 'handles files' }, locate: () => ({ line: 1, column: 1 }) };
    const ds = runLint([boom, vague], [file], lintSettings([boom, vague], {}), (f) => f);
    expect(ds.map((d) => d.rule)).toEqual(['boom', 'description-vague']);
  });
});

describe('lint text helpers', () => {
  it('segments Chinese, stems English and drops stop words', () => {
    expect(terms('根据城市名称查询当前天气')).toEqual(expect.arrayContaining(['城市', '天气']));
    expect(terms('Handles the files')).toEqual(['handl', 'fil']);
    expect(terms('handling a file')).toEqual(['handl', 'fil']);
  });
  it('counts a CJK character as three', () => {
    expect(weightedLength('abc')).toBe(3);
    expect(weightedLength('天气')).toBe(6);
  });
  it('reads only the start of a huge description', () => {
    expect(terms('word '.repeat(1_000_000)).length).toBeLessThan(1000);
  });
});

// The lint engine's config errors (what is wrong, where, what to write instead) and the exact
// diagnostic it builds from a rule's report, including for a rule that crashes.
import { describe, expect, it } from 'vitest';
import { lintSettings, runLint } from '../../src/lint/engine.js';
import { ruleMap } from '../../src/lint/rules/index.js';
import type { LintFile, LintRule } from '../../src/lint/types.js';
import type { ToolboxConfig } from '../../src/config.js';
import { ToolboxError } from '../../src/errors.js';

const CONFIG = '/p/toolbox.config.yaml';
const rule = (id: string, extra: Partial<LintRule> = {}, options?: Record<string, number>): LintRule => ({
  meta: { id, description: `${id} rule`, severity: 'warning', docs: 'docs', ...(options ? { options } : {}) },
  ...extra,
});
const RULES = [rule('too-short', {}, { min: 40 }), rule('vague'), rule('range', {}, { min: 1, max: 9 })];

const configError = (lint: unknown, file: string | null = CONFIG) => {
  try {
    lintSettings(RULES, { lint } as ToolboxConfig, file ?? undefined);
  } catch (e) {
    expect(e).toBeInstanceOf(ToolboxError);
    return e as ToolboxError;
  }
  throw new Error('no error');
};

describe('lintSettings: config errors say where and what to write', () => {
  it.each([
    [[], '`lint` must be a mapping', 'Use `lint: { rules: {...}, options: {...} }`.'],
    ['x', '`lint` must be a mapping', 'Use `lint: { rules: {...}, options: {...} }`.'],
    [
      { rules: { vauge: 'off' } },
      "lint.rules: unknown rule 'vauge'. Did you mean 'vague'?",
      'Rules: too-short, vague, range.',
    ],
    [{ rules: { zzzzzz: 'off' } }, "lint.rules: unknown rule 'zzzzzz'.", 'Rules: too-short, vague, range.'],
    [
      { rules: { vague: 'fatal' } },
      "lint.rules.vague: 'fatal' is not a severity",
      'Use one of: error, warning, info, off.',
    ],
    [{ options: { vague: 3 } }, 'lint.options.vague must be a mapping', 'e.g. `description-too-short: { min: 30 }`.'],
    [{ options: { vague: [] } }, 'lint.options.vague must be a mapping', 'e.g. `description-too-short: { min: 30 }`.'],
    [
      { options: { vague: null } },
      'lint.options.vague must be a mapping',
      'e.g. `description-too-short: { min: 30 }`.',
    ],
    [{ options: { vague: { min: 3 } } }, "lint.options.vague: unknown option 'min'", 'vague takes no options.'],
    [
      { options: { 'too-short': { max: 3 } } },
      "lint.options.too-short: unknown option 'max'",
      'Options of too-short: min.',
    ],
    [{ options: { 'too-short': { min: '3' } } }, 'lint.options.too-short.min must be a number', 'Default: 40.'],
    [{ options: { range: { step: 2 } } }, "lint.options.range: unknown option 'step'", 'Options of range: min, max.'],
    [
      { options: { vauge: {} } },
      "lint.options: unknown rule 'vauge'. Did you mean 'vague'?",
      'Rules: too-short, vague, range.',
    ],
    [
      { rules: { 'description-secret-access': 'off' } },
      "lint.rules: rule 'description-secret-access' was replaced by poison-secret-env, poison-secret-file, poison-exfiltration",
      'Name the new rules instead (docs/supply-chain.md lists what each one finds).',
    ],
    [
      { options: { 'description-instruction-override': {} } },
      "lint.options: rule 'description-instruction-override' was replaced by poison-override, poison-concealment",
      'Name the new rules instead (docs/supply-chain.md lists what each one finds).',
    ],
  ])('%j', (lint, message, hint) => {
    const e = configError(lint);
    expect([e.code, e.exitCode]).toEqual(['config_invalid', 3]);
    expect(e.message).toBe(`${CONFIG}: ${message}`);
    expect(e.hint).toBe(hint);
    expect(e.location).toEqual({ file: CONFIG });
  });

  it('without a config file the message names toolbox.config.yaml and has no location', () => {
    const e = configError({ rules: { vague: 'loud' } }, null);
    expect(e.message).toBe("toolbox.config.yaml: lint.rules.vague: 'loud' is not a severity");
    expect(e.location).toBeUndefined();
  });

  it('defaults, overrides, and options merged over (not replacing) the defaults; extra checks are configurable', () => {
    const s = lintSettings(
      RULES,
      { lint: { rules: { vague: 'off', routing: 'error' }, options: { 'too-short': { min: 10 } } } } as ToolboxConfig,
      CONFIG,
      [{ id: 'routing', description: 'r', severity: 'warning', docs: 'd' }],
    );
    expect(s).toEqual({
      severity: { 'too-short': 'warning', vague: 'off', range: 'warning', routing: 'error' },
      options: { 'too-short': { min: 10 }, vague: {}, range: { min: 1, max: 9 }, routing: {} },
    });
    // The rule's own defaults are not changed by a project's options.
    expect(RULES[0]!.meta.options).toEqual({ min: 40 });
    expect(lintSettings(RULES, {}).severity).toEqual({ 'too-short': 'warning', vague: 'warning', range: 'warning' });
  });
});

describe('runLint: the diagnostics it builds', () => {
  const file = (name: string): LintFile => ({
    file: name,
    data: { id: name },
    locate: (path) => ({ line: path.length + 1, column: path.length * 2 + 1 }),
  });

  it('file, position from the path, severity from the settings, rule id, message, dotted path, hint when given', () => {
    const r = rule('r', {
      check(ctx) {
        ctx.report({ path: ['schema', 'properties', 'q'], message: `m ${String(ctx.options.n)}`, hint: 'h' });
        ctx.report({ path: [], message: 'top' });
      },
    });
    const ds = runLint([r], [file('/a.yaml')], { severity: { r: 'info' }, options: { r: { n: 7 } } }, (f) => f);
    expect(ds).toEqual([
      {
        file: '/a.yaml',
        line: 4,
        column: 7,
        severity: 'info',
        rule: 'r',
        message: 'm 7',
        path: 'schema.properties.q',
        hint: 'h',
      },
      { file: '/a.yaml', line: 1, column: 1, severity: 'info', rule: 'r', message: 'top', path: '' },
    ]);
  });

  it('a rule missing from the settings runs at its own severity with no options; off rules do not run', () => {
    let ran = 0;
    const r = rule('r', {
      check(ctx) {
        ran++;
        expect(ctx.options).toEqual({});
        ctx.report({ path: ['id'], message: 'x' });
      },
    });
    expect(runLint([r], [file('/a.yaml')], { severity: {}, options: {} }, (f) => f)[0]!.severity).toBe('warning');
    expect(runLint([r], [file('/a.yaml')], { severity: { r: 'off' }, options: {} }, (f) => f)).toEqual([]);
    expect(ran).toBe(1);
  });

  it('a registry-wide rule reports on the file it names and sees displayPath', () => {
    const r = rule('all', {
      checkAll(ctx) {
        ctx.report(ctx.files[1]!, { path: ['id'], message: ctx.displayPath(ctx.files[0]!.file) });
      },
    });
    const ds = runLint([r], [file('/r/a.yaml'), file('/r/b.yaml')], lintSettings([r], {}), (f) => f.slice(3));
    expect(ds).toEqual([
      { file: '/r/b.yaml', line: 2, column: 3, severity: 'warning', rule: 'all', message: 'a.yaml', path: 'id' },
    ]);
  });

  it('a crash becomes one error on the file (or the first file, for a registry-wide rule) and the rest still run', async () => {
    const boom = (how: 'check' | 'checkAll', thrown: unknown) =>
      rule(`boom-${how}`, {
        [how]: () => {
          throw thrown;
        },
      });
    const vague = await ruleMap['description-vague']();
    const files = [file('/a.yaml'), file('/b.yaml')];
    files[1]!.data.description = 'handles files';
    const rules = [boom('check', new Error('kaput')), boom('checkAll', 'a string'), vague];
    const ds = runLint(rules, files, lintSettings(rules, {}), (f) => f);
    expect(ds.map((d) => [d.file, d.line, d.column, d.severity, d.rule, d.message])).toEqual([
      ['/a.yaml', 1, 1, 'error', 'boom-check', "lint rule 'boom-check' crashed: kaput (a bug in toolbox)"],
      ['/b.yaml', 1, 1, 'error', 'boom-check', "lint rule 'boom-check' crashed: kaput (a bug in toolbox)"],
      ['/a.yaml', 1, 1, 'error', 'boom-checkAll', "lint rule 'boom-checkAll' crashed: a string (a bug in toolbox)"],
      ['/b.yaml', 2, 3, 'error', 'description-vague', expect.stringContaining('handles, files')],
    ]);
    expect(runLint([boom('checkAll', new Error('x'))], [], { severity: {}, options: {} }, (f) => f)[0]!.file).toBe('');
  });
});

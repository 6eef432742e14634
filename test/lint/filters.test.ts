// lint.ignore globs, lint.overrides and inline disable comments, on their own.
import { describe, expect, it } from 'vitest';
import { applyDirectives, applyOverrides, globMatch, isIgnored, parseDirectives } from '../../src/lint/filters.js';
import type { Diagnostic } from '../../src/contract/diagnostic.js';

const diag = (file: string, line: number, rule: string, severity: Diagnostic['severity'] = 'warning'): Diagnostic => ({
  file,
  line,
  column: 1,
  severity,
  rule,
  message: 'm',
});

describe('parseDirectives', () => {
  it('finds each comment, its column, the next line that is not blank or a comment, and its rules', () => {
    const text = [
      'id: a', // 1
      '  # toolbox-disable-next-line description-vague, param-type -- legacy', // 2
      '', // 3
      '   # another comment', // 4
      'description: x', // 5
      '#toolbox-disable-next-line', // 6
      'name: y', // 7
      'x: 1 # toolbox-disable-next-line not-a-directive', // 8
      '# toolbox-disable-next-liner nope', // 9
      '\t# toolbox-disable-next-line -- only a reason', // 10
    ].join('\r\n');
    expect(parseDirectives(text)).toEqual([
      { line: 2, column: 3, target: 5, rules: ['description-vague', 'param-type'] },
      { line: 6, column: 1, target: 7 },
      { line: 10, column: 2, target: 11 },
    ]);
    expect(parseDirectives('id: a\n')).toEqual([]);
  });
});

describe('globMatch and isIgnored', () => {
  it.each([
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'sub/a.yaml', true], // no slash: the file name at any depth
    ['sub/*.yaml', 'sub/a.yaml', true],
    ['sub/*.yaml', 'sub/deep/a.yaml', false],
    ['sub/**/*.yaml', 'sub/a.yaml', true],
    ['sub/**/*.yaml', 'sub/x/y/a.yaml', true],
    ['sub/**', 'sub/x/a.yaml', true],
    ['./sub/?.yaml', 'sub/a.yaml', true],
    ['sub/?.yaml', 'sub/ab.yaml', false],
    ['a.yaml', 'a_yaml', false], // a dot is a dot
    ['a+b.yaml', 'a+b.yaml', true],
    ['(x).yaml', '(x).yaml', true],
    ['*.yaml', 'a.yml', false],
    ['sub/*.yaml', 'other/sub/a.yaml', false], // with a slash: anchored at the registry
  ])('%s ~ %s: %s', (glob, rel, want) => {
    expect(globMatch(glob, rel)).toBe(want);
  });
  it('isIgnored matches registry-relative paths', () => {
    expect(isIgnored('/r', '/r/drafts/a.yaml', ['drafts/**'])).toBe(true);
    expect(isIgnored('/r', '/r/a.yaml', ['drafts/**'])).toBe(false);
    expect(isIgnored('/r', '/r/a.yaml', [])).toBe(false);
  });
});

describe('applyOverrides', () => {
  const ds = [diag('/r/imported/a.yaml', 1, 'vague'), diag('/r/b.yaml', 1, 'vague'), diag('/r/b.yaml', 2, 'when')];
  it('sets severities per glob, later entries win, off drops', () => {
    const out = applyOverrides(ds, '/r', [
      { files: ['imported/**'], rules: { vague: 'info' } },
      { files: ['*.yaml'], rules: { when: 'off' } },
      { files: ['imported/a.yaml'], rules: { vague: 'error' } },
    ]);
    expect(out.map((d) => `${d.file}:${d.rule}:${d.severity}`)).toEqual([
      '/r/imported/a.yaml:vague:error',
      '/r/b.yaml:vague:warning',
    ]);
    expect(ds[0]!.severity).toBe('warning'); // not changed in place
  });
  it('a rule on only through an override is dropped elsewhere; no overrides: the same list', () => {
    const out = applyOverrides(ds, '/r', [{ files: ['imported/*'], rules: { vague: 'error' } }], new Set(['vague']));
    expect(out.map((d) => `${d.file}:${d.rule}:${d.severity}`)).toEqual([
      '/r/imported/a.yaml:vague:error',
      '/r/b.yaml:when:warning',
    ]);
    expect(applyOverrides(ds, '/r', [])).toBe(ds);
  });
});

describe('applyDirectives', () => {
  const f = '/r/a.yaml';
  it('drops lint findings on the target line for the named rules (or all), never structural ones', () => {
    const ds = [
      diag(f, 5, 'vague'),
      diag(f, 5, 'when'),
      diag(f, 5, 'duplicate-id', 'error'),
      diag(f, 7, 'vague'),
      diag('/r/b.yaml', 5, 'vague'),
    ];
    const out = applyDirectives(
      ds,
      new Map([
        [
          f,
          [
            { line: 4, column: 1, target: 5, rules: ['vague'] },
            { line: 6, column: 3, target: 7 },
          ],
        ],
      ]),
    );
    expect(out.map((d) => `${d.file}:${d.line}:${d.rule}`)).toEqual([
      '/r/a.yaml:5:when',
      '/r/a.yaml:5:duplicate-id',
      '/r/b.yaml:5:vague',
    ]);
  });
  it('reports each directive, or each of its rules, that silenced nothing', () => {
    const ds = [diag(f, 5, 'vague')];
    const out = applyDirectives(
      ds,
      new Map([
        [
          f,
          [
            { line: 4, column: 3, target: 5, rules: ['vague', 'when', 'type'] },
            { line: 8, column: 1, target: 9 },
          ],
        ],
      ]),
    );
    expect(out).toEqual([
      {
        file: f,
        line: 4,
        column: 3,
        severity: 'warning',
        rule: 'unused-disable',
        message: 'toolbox-disable-next-line when, type: nothing to disable on line 5',
        hint: 'Remove the comment (or the rule names that no longer apply).',
      },
      expect.objectContaining({
        line: 8,
        column: 1,
        message: 'toolbox-disable-next-line (all rules): nothing to disable on line 9',
      }),
    ]);
    expect(applyDirectives(ds, new Map())).toBe(ds);
  });
});

describe('filters at their edges', () => {
  it('a rule list that starts with a comma has no empty rule name', () => {
    expect(parseDirectives('# toolbox-disable-next-line ,description-vague\nid: a\n')).toEqual([
      { line: 1, column: 1, target: 2, rules: ['description-vague'] },
    ]);
  });
  it.each([
    ['v1./a.yaml', 'v1./a.yaml', true], // only a leading ./ is dropped
    ['v1./a.yaml', 'v1a.yaml', false],
    ['sub/**/a.yaml', 'sub/xa.yaml', false], // **/ ends at a slash
    ['sub/**/a.yaml', 'sub/x/a.yaml', true],
    ['**.yaml', 'a_yaml', false],
    ['**.yaml', 'x/a.yaml', true],
  ])('%s ~ %s: %s', (glob, rel, want) => {
    expect(globMatch(glob, rel)).toBe(want);
  });
  it('an override applies when any one of its globs matches', () => {
    const out = applyOverrides([diag('/r/b.yaml', 1, 'vague')], '/r', [
      { files: ['imported/**', '*.yaml'], rules: { vague: 'error' } },
    ]);
    expect(out.map((d) => d.severity)).toEqual(['error']);
  });
  it('a disable-all comment never silences a structural finding', () => {
    const structural = [
      'yaml-syntax',
      'encoding',
      'binary-file',
      'empty-file',
      'file-too-large',
      'unreadable',
      'unsafe-key',
      'contract-schema',
      'invalid-json-schema',
      'remote-ref',
      'duplicate-id',
    ];
    const ds = [...structural.map((r) => diag('/r/a.yaml', 2, r, 'error')), diag('/r/a.yaml', 2, 'vague')];
    const out = applyDirectives(ds, new Map([['/r/a.yaml', [{ line: 1, column: 1, target: 2 }]]]));
    expect(out.map((d) => d.rule)).toEqual(structural);
  });
});
